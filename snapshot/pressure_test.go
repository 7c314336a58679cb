package snapshot

import (
	"testing"
	"time"
)

// Stall shares are of the interval between the two readings: 1 s of CPU
// stall in 2 s is 50 %; a counter that went back (another boot) gives none.
func TestPressureRates(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	prev := &Snapshot{Time: t0, Pressure: &Pressure{CPU: Stall{SomeUS: 5e6}, IO: Stall{SomeUS: 1e6, FullUS: 1e6}}}
	cur := &Snapshot{Time: t0.Add(2 * time.Second),
		Pressure: &Pressure{CPU: Stall{SomeUS: 6e6}, IO: Stall{SomeUS: 1.4e6, FullUS: 1.2e6}, Memory: Stall{SomeUS: 3e6}}}
	r := Delta(prev, cur)
	want := PressureRates{CPU: StallRate{Some: 50}, IO: StallRate{Some: 20, Full: 10}, Memory: StallRate{Some: 100}}
	if r == nil || r.Pressure == nil || *r.Pressure != want {
		t.Fatalf("got %+v, want %+v", r.Pressure, want)
	}
	rebooted := &Snapshot{Time: t0.Add(4 * time.Second), Pressure: &Pressure{CPU: Stall{SomeUS: 10}}}
	if r := Delta(cur, rebooted); r.Pressure != nil {
		t.Errorf("a counter that went back: %+v", r.Pressure)
	}
	if r := Delta(prev, &Snapshot{Time: t0.Add(time.Second)}); r.Pressure != nil {
		t.Errorf("without a reading: %+v", r.Pressure)
	}
}
