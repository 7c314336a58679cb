package baseline

import "time"

// Config holds the baseline's times. Every one is a duration, never a frame
// count, so captures at 1 s and at 10 s reach the same verdict.
type Config struct {
	// Window is the longest normal the baseline holds (at most 30 min).
	Window time.Duration
	// WarmUp is how much normal it needs before judging anything.
	WarmUp time.Duration
	// Short is the recent stretch a signal's value is averaged over: long
	// enough to smooth a 1 s sample's noise, short enough to date a step
	// within a few seconds.
	Short time.Duration
	// Hold is how long a cause's signature must hold before it is an onset.
	Hold time.Duration
	// CloseAfter is how long every signature must have been gone before the
	// episode ends and the baseline learns again.
	CloseAfter time.Duration
	// AcceptAfter is how long an episode may stay open before its level is
	// taken as the new normal (the baseline learns from it again).
	AcceptAfter time.Duration
	// ChronicShare is the share of the baseline's stretch a finding must
	// have stood in to be chronic.
	ChronicShare float64
}

// DefaultConfig is the configuration every command uses.
func DefaultConfig() Config {
	return Config{
		Window:       30 * time.Minute,
		WarmUp:       5 * time.Minute,
		Short:        5 * time.Second,
		Hold:         6 * time.Second,
		CloseAfter:   30 * time.Second,
		AcceptAfter:  15 * time.Minute,
		ChronicShare: 0.3,
	}
}

func (c Config) windowBuckets() int64 {
	return min(int64(c.Window/(bucketSpan*time.Second)), nBuckets)
}
