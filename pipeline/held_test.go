package pipeline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// hostAt is a reading of a 2-CPU host after secs seconds of it fully busy
// and a disk writing 1 MB a second.
func hostAt(secs float64) *snapshot.Host {
	return &snapshot.Host{NumCPU: 2,
		CPU:   snapshot.CPUTimes{User: 1000 + 200*secs, Idle: 5000},
		Disks: []snapshot.DiskCounters{{Name: "vda", WriteBytes: uint64(secs * (1 << 20))}}}
}

// A capture reads the host every 2 s and carries each reading into the
// second between: every frame shows the rates the readings' interval
// measured, none the 0 % busy (and 0 % idle) of a reading compared with
// itself, none twice the disk's rate.
func TestHostRatesBetweenReadingsNotFrames(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)
	b := NewBuilder("REPLAY", nil)
	var h *snapshot.Host
	for i := range 9 {
		switch {
		case i == 5: // a second with no host at all
			h = nil
		case i%2 == 0 || h == nil:
			h = hostAt(float64(i))
		case i == 3:
			// carried as an importer's timeline carries it: the very same reading
		default:
			c := *h // carried: the same reading, as a recording holds it
			h = &c
		}
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Host: h}
		f := b.Add(s)
		switch {
		case i < 2 || h == nil:
			if f.Rates != nil && f.Rates.Host != nil {
				t.Errorf("frame %d: host rates %+v before two readings", i, f.Rates.Host)
			}
		case f.Rates == nil || f.Rates.Host == nil:
			t.Errorf("frame %d: no host rates", i)
		default:
			c, d := f.Rates.Host.CPU, f.Rates.Host.Disks
			if c.User != 100 || c.Idle != 0 || len(d) != 1 || d[0].WriteBytes != 1<<20 {
				t.Errorf("frame %d: user %.0f %%, idle %.0f %%, disks %+v; want 100 %%, 0 %%, 1 MB/s written",
					i, c.User, c.Idle, d)
			}
		}
	}
}

// A copy of a reading (a capture saved as a recording and read back) is the
// same reading: its CPU clock did not move.
func TestSameHostReading(t *testing.T) {
	a, b := hostAt(2), hostAt(2)
	if !snapshot.SameHostReading(a, b) || snapshot.SameHostReading(a, hostAt(3)) ||
		snapshot.SameHostReading(&snapshot.Host{}, &snapshot.Host{}) {
		t.Error("SameHostReading: a copy is the same reading, a later one is not, nor two without CPU times")
	}
}

// pressureAt is a reading after secs seconds in which some task always
// waited for a CPU.
func pressureAt(secs float64) *snapshot.Pressure {
	return &snapshot.Pressure{CPU: snapshot.Stall{SomeUS: uint64(secs * 1e6)}}
}

// The stall clocks are held as the host is: a capture's loop that slipped
// a second carries its reading (marked carried), and every frame shows the
// 100 % its readings measured. A reading whose clocks stood still without
// that mark is a real one: nothing waited, and it shows 0 %.
func TestStallRatesBetweenReadingsNotFrames(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)
	b := NewBuilder("REPLAY", nil)
	readings := []struct {
		p       *snapshot.Pressure
		carried bool
		want    float64
	}{
		{pressureAt(0), false, -1}, {pressureAt(1), false, 100}, {pressureAt(1), true, 100},
		{pressureAt(3), false, 100}, {pressureAt(3), false, 0},
	}
	for i, r := range readings {
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Pressure: r.p,
			Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
		if r.carried {
			s.Collectors[snapshot.CollectorPressure] = snapshot.CollectorState{Stale: true, Error: "carried from 04:00:01"}
		}
		f := b.Add(s)
		var got float64 = -1
		if f.Rates != nil && f.Rates.Pressure != nil {
			got = f.Rates.Pressure.CPU.Some
		}
		if got != r.want {
			t.Errorf("frame %d: CPU stall %v %%, want %v (-1: none)", i, got, r.want)
		}
	}
}
