package pipeline

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// held is the last new reading of a part with counters that the frames
// carried, so its rates are measured between readings, not between frames.
// A capture whose loop read the host every 2 s carries each reading into the
// second between: measured frame to frame, that second showed the host 0 %
// busy and 0 % idle with no disk I/O, and the next one doubled every
// per-second rate. The stall clocks are carried the same way.
type held[T, R any] struct {
	part    heldPart[T, R]
	reading *T
	at      time.Time
	rates   *R
}

// heldPart says how one part is held: where a frame keeps its reading and
// rates, whether a reading is the last one again, and its rates between two.
type heldPart[T, R any] struct {
	of    func(*snapshot.Snapshot) *T
	rates func(*snapshot.Rates) **R
	// same: the frame's reading is last again, not a new one.
	same  func(last *T, s *snapshot.Snapshot) bool
	delta func(prev, cur *T, secs float64) *R
}

// heldReadings are the parts whose readings a capture carries.
type heldReadings struct {
	host     held[snapshot.Host, snapshot.HostRates]
	pressure held[snapshot.Pressure, snapshot.PressureRates]
}

func newHeldReadings() heldReadings {
	return heldReadings{
		host: held[snapshot.Host, snapshot.HostRates]{part: heldPart[snapshot.Host, snapshot.HostRates]{
			of:    func(s *snapshot.Snapshot) *snapshot.Host { return s.Host },
			rates: func(r *snapshot.Rates) **snapshot.HostRates { return &r.Host },
			same:  func(last *snapshot.Host, s *snapshot.Snapshot) bool { return snapshot.SameHostReading(last, s.Host) },
			delta: snapshot.HostDelta,
		}},
		pressure: held[snapshot.Pressure, snapshot.PressureRates]{part: heldPart[snapshot.Pressure, snapshot.PressureRates]{
			of:    func(s *snapshot.Snapshot) *snapshot.Pressure { return s.Pressure },
			rates: func(r *snapshot.Rates) **snapshot.PressureRates { return &r.Pressure },
			same:  samePressureReading,
			delta: snapshot.PressureDelta,
		}},
	}
}

// rate sets f's rates of every held part.
func (h *heldReadings) rate(f *snapshot.Frame, prev *snapshot.Snapshot) {
	h.host.rate(f, prev)
	h.pressure.rate(f, prev)
}

// samePressureReading: the very same reading, or one the capture marked
// carried (snapshot.PressureCarried).
func samePressureReading(last *snapshot.Pressure, s *snapshot.Snapshot) bool {
	return last == s.Pressure || last != nil && snapshot.PressureCarried(s)
}

// rate sets f's rates of the part: those the reading's own interval
// measured, for a carried reading too. prev is the snapshot before f's; when
// it held the last reading (live, every frame), Delta already measured from
// it.
func (h *held[T, R]) rate(f *snapshot.Frame, prev *snapshot.Snapshot) {
	s := f.Snapshot
	cur := h.part.of(s)
	switch {
	case f.Rates == nil:
		// The first frame, or a clock that went back: a reading to measure from.
		*h = held[T, R]{part: h.part, reading: cur, at: s.Time}
		return
	case cur == nil:
		return // a frame without the part: the next reading is measured from the last
	case h.reading != nil && h.part.same(h.reading, s):
		*h.part.rates(f.Rates) = h.rates
		return
	case h.reading != nil && prev != nil && !prev.Time.Equal(h.at) && s.Time.After(h.at):
		// The frame before carried the last reading (the very same one, as an
		// importer's timeline carries it, or a copy), or held none.
		*h.part.rates(f.Rates) = h.part.delta(h.reading, cur, s.Time.Sub(h.at).Seconds())
	}
	*h = held[T, R]{part: h.part, reading: cur, at: s.Time, rates: *h.part.rates(f.Rates)}
}
