package analyzers

import (
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestCounterStart: the one counter-span helper never subtracts across two
// server lifetimes, marked or not, nor across a counter's FLUSH STATUS.
func TestCounterStart(t *testing.T) {
	// sample is one frame: seconds from t0, Uptime, Innodb_deadlocks.
	type sample struct{ at, uptime, deadlocks int }
	build := func(ss []sample, marked bool) []*snapshot.Frame {
		var out []*snapshot.Frame
		for i, x := range ss {
			s := &snapshot.Snapshot{Time: t0.Add(time.Duration(x.at) * time.Second), Status: map[string]string{
				"Uptime": fmt.Sprint(x.uptime), "Innodb_deadlocks": fmt.Sprint(x.deadlocks)}}
			f := &snapshot.Frame{Seq: i, Snapshot: s, Rates: &snapshot.Rates{Interval: 1}}
			if marked && i > 0 {
				f.Rates = snapshot.Delta(out[i-1].Snapshot, s)
			}
			out = append(out, f)
		}
		return out
	}
	cfg := DefaultConfig()
	cases := []struct {
		name      string
		samples   []sample
		wantDelta float64
		wantOK    bool
	}{
		{"one lifetime", []sample{{0, 1000, 10}, {1, 1001, 12}, {2, 1002, 15}}, 5, true},
		// Unreachable 600 s; restarted 300 s before it answered: Uptime
		// 300 < 1001 would show it, but 2,000 s later it is 2,300 > 1001.
		{"restarted while unreachable, Uptime past the last one read", []sample{{0, 1000, 900}, {1, 1001, 950},
			{2601, 1300, 40}, {2602, 1301, 44}}, 4, true},
		{"restarted, Uptime went down", []sample{{0, 1000, 900}, {1, 1001, 950}, {2, 2, 0}, {3, 3, 3}}, 3, true},
		{"FLUSH STATUS of this counter", []sample{{0, 1000, 900}, {1, 1001, 950}, {2, 1002, 1}, {3, 1003, 4}}, 3, true},
		{"restarted at the current frame", []sample{{0, 1000, 900}, {1, 1001, 950}, {2601, 1300, 40}}, 0, false},
	}
	for _, c := range cases {
		for _, marked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/marked=%v", c.name, marked), func(t *testing.T) {
				fs := build(c.samples, marked)
				w := newWindow(fs, map[int]procCounts{}, &cfg)
				sp, ok := w.spanOver("Innodb_deadlocks", time.Hour, 0)
				if ok != c.wantOK || sp.delta != c.wantDelta {
					t.Errorf("spanOver = %v (%v), want %v (%v)", sp.delta, ok, c.wantDelta, c.wantOK)
				}
			})
		}
	}
}
