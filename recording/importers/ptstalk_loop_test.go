package importers

import (
	"strings"
	"testing"
	"time"
)

// A part with no clock of its own is placed at the loop's stamps when it
// has one sample a turn, or a turn or two fewer (the collection stopped
// under its last turn); further off, on the status clock, named estimated.
func TestOnLoopPlacesAPartCutShort(t *testing.T) {
	base := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	var loop, status []time.Time
	for i := range 10 {
		// The loop's turns take 1.3 s under load; the status clock ticks 1 s.
		loop = append(loop, base.Add(time.Duration(i)*1300*time.Millisecond))
		status = append(status, base.Add(time.Duration(i)*time.Second))
	}
	for _, c := range []struct {
		n         int
		onLoop    bool
		estimated bool
	}{{10, true, false}, {9, true, false}, {8, true, false}, {7, false, true}, {11, false, true}} {
		r := &ptReader{loop: loop}
		place := r.onLoop("processlist", c.n, status, base)
		want := status[5]
		if c.onLoop {
			want = loop[5]
		}
		if got := place(5); !got.Equal(want) {
			t.Errorf("%d samples: the 6th placed at %s, want %s", c.n, got.Format(time.TimeOnly+".0"), want.Format(time.TimeOnly+".0"))
		}
		if est := len(r.estimated) > 0; est != c.estimated {
			t.Errorf("%d samples: estimated %v, want %v (placed %v)", c.n, est, c.estimated, r.placed)
		}
		if c.n == 9 && (len(r.placed) != 1 || !strings.Contains(r.placed[0], "last 1 turns wrote none")) {
			t.Errorf("9 samples: note %v", r.placed)
		}
	}
}
