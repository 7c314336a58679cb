package snapshot

import "time"

// ListCadence is set on a live frame while the processlist is read in full
// less often than every tick, because a full read costs the server more than
// the monitor allows itself (collectors' listCadence): every read walks every
// connection, and at thousands of idle ones that is milliseconds of the
// server's time a second to learn that they still sleep. Between full reads
// the frame's processlist is the last full read's, carried while the status
// says nothing but the monitor runs and the count of connections holds; any
// running thread makes the next tick read in full. Nil: read in full this
// tick as every tick (the usual case), or a source that does not say.
type ListCadence struct {
	// FullAt is when the list was last read in full: the frame's own time
	// when this tick read it, earlier when its rows were carried (their
	// sleeping sessions' TIME grown since).
	FullAt time.Time `json:"full_at"`
	// Every is the full read's period now; Cost what one full read took
	// (the median of the last few), Budget the server time per second the
	// monitor allows the full read.
	Every  time.Duration `json:"every"`
	Cost   time.Duration `json:"cost"`
	Budget time.Duration `json:"budget"`
}

// Carried reports whether the frame's processlist is an earlier full read's.
func (c *ListCadence) Carried(now time.Time) bool { return c != nil && now.After(c.FullAt) }
