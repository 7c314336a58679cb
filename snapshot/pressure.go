package snapshot

// Pressure is the kernel's pressure stall information (/proc/pressure on
// Linux 4.20 and later): how long tasks were stalled waiting for a CPU, for
// I/O and for memory, as cumulative microseconds. Unlike a run queue or a
// disk's busy share, it says how much work waited, whatever the host's size
// and whatever the device: the figure that tells a saturated host from a
// busy one.
type Pressure struct {
	CPU    Stall `json:"cpu"`
	IO     Stall `json:"io"`
	Memory Stall `json:"memory"`
}

// Stall is one resource's stall time: Some while at least one task waited,
// Full while every non-idle task did (the resource stopped all work).
type Stall struct {
	SomeUS uint64 `json:"some_us"`
	FullUS uint64 `json:"full_us"`
}

// PressureRates is the share of wall time, in percent, tasks were stalled
// on each resource between two readings.
type PressureRates struct {
	CPU    StallRate `json:"cpu"`
	IO     StallRate `json:"io"`
	Memory StallRate `json:"memory"`
}

// StallRate is one resource's stalled share of the interval, in percent.
type StallRate struct {
	Some float64 `json:"some"`
	Full float64 `json:"full"`
}

// PressureCarried says s's stall reading is an earlier one a capture
// carried into a second its loop skipped (marked stale), not a new one.
// Unlike a CPU clock, a stall clock may stand still between two real
// readings (nothing waited), so equal counters cannot tell it; a live read
// that fails leaves no reading at all.
func PressureCarried(s *Snapshot) bool {
	return s.Pressure != nil && s.Collectors[CollectorPressure].Stale
}

// pressureRates is nil without two readings, or when a counter went back
// (another host, or a reboot).
func pressureRates(prev, cur *Pressure, secs float64) *PressureRates {
	if prev == nil || cur == nil {
		return nil
	}
	var r PressureRates
	us := secs * 1e6 / 100 // microseconds in 1 % of the interval
	ok := counterRates(us,
		counterField{&r.CPU.Some, prev.CPU.SomeUS, cur.CPU.SomeUS},
		counterField{&r.CPU.Full, prev.CPU.FullUS, cur.CPU.FullUS},
		counterField{&r.IO.Some, prev.IO.SomeUS, cur.IO.SomeUS},
		counterField{&r.IO.Full, prev.IO.FullUS, cur.IO.FullUS},
		counterField{&r.Memory.Some, prev.Memory.SomeUS, cur.Memory.SomeUS},
		counterField{&r.Memory.Full, prev.Memory.FullUS, cur.Memory.FullUS})
	if !ok {
		return nil
	}
	r.CPU.clamp()
	r.IO.clamp()
	r.Memory.clamp()
	return &r
}

// clamp keeps the shares at 100 %: the kernel's clock and the sample's
// differ by a little.
func (r *StallRate) clamp() { r.Some, r.Full = min(r.Some, 100), min(r.Full, 100) }
