package pipeline

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// heldHost is the last new host reading the frames carried, so a host's
// rates are measured between readings, not between frames. A capture whose
// loop read the host every 2 s carries each reading into the second between:
// measured frame to frame, that second showed the host 0 % busy and 0 %
// idle with no disk I/O, and the next one doubled every per-second rate.
type heldHost struct {
	host  *snapshot.Host
	at    time.Time
	rates *snapshot.HostRates
}

// rate sets f's host rates: those the reading's own interval measured,
// for a carried reading too. prev is the snapshot before f's; when it held
// the last reading (live, every frame), Delta already measured from it.
func (h *heldHost) rate(f *snapshot.Frame, prev *snapshot.Snapshot) {
	s := f.Snapshot
	switch {
	case f.Rates == nil:
		// The first frame, or a clock that went back: a reading to measure from.
		*h = heldHost{host: s.Host, at: s.Time}
		return
	case s.Host == nil:
		return // a frame without the host: the next reading is measured from the last
	case h.host != nil && snapshot.SameHostReading(h.host, s.Host):
		f.Rates.Host = h.rates
		return
	case h.host != nil && prev != nil && prev.Host != h.host && s.Time.After(h.at):
		// The frame before carried an older reading, or none.
		f.Rates.Host = snapshot.HostDelta(h.host, s.Host, s.Time.Sub(h.at).Seconds())
	}
	*h = heldHost{host: s.Host, at: s.Time, rates: f.Rates.Host}
}
