package recording

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

type frameLog struct{ frames []*snapshot.Frame }

func (l *frameLog) Write(f *snapshot.Frame) error { l.frames = append(l.frames, f); return nil }

// tenMinutes is a 1 s recording of 600 frames with a warning from 300 s to
// 359 s and an info finding at 100 s (which must not keep detail).
func tenMinutes(t0 time.Time) []*snapshot.Frame {
	var fs []*snapshot.Frame
	for i := 0; i < 600; i++ {
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second),
			Processlist: []snapshot.Process{{ID: int64(i), Command: "Query", Info: "SELECT 1"}},
			Status:      map[string]string{"Questions": "1"},
			InnoDB:      &snapshot.InnoDBStatus{Raw: "=====\nINNODB MONITOR OUTPUT\n"},
			Variables:   map[string]string{"max_connections": "151"},
		}
		if i == 0 || i == 50 {
			s.VariablesChanged = true
		}
		f := &snapshot.Frame{Seq: i, Snapshot: s}
		switch {
		case i >= 300 && i < 360:
			f.Findings = []snapshot.Finding{{ID: "row_lock_waits", Severity: snapshot.Warning}}
		case i == 100:
			f.Findings = []snapshot.Finding{{ID: "server_restarted", Severity: snapshot.Info}}
		}
		fs = append(fs, f)
	}
	return fs
}

func TestKeepAround(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	var log frameLog
	k, err := newKeepAround(&log, 2*time.Minute, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range tenMinutes(t0) {
		if err := k.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	var full, thinAt []int
	prev := time.Time{}
	for _, f := range log.frames {
		sec := int(f.Time().Sub(t0) / time.Second)
		if !f.Time().After(prev) {
			t.Fatalf("frame at %d s written out of order", sec)
		}
		prev = f.Time()
		if f.Snapshot.Processlist != nil {
			full = append(full, sec)
			continue
		}
		thinAt = append(thinAt, sec)
		if f.Snapshot.Status["Questions"] != "1" || f.Snapshot.InnoDB.Raw != "" {
			t.Errorf("thin frame at %d s: counters dropped or InnoDB text kept", sec)
		}
	}
	// Full detail from 2 min before the first warning (300-120, inclusive) to 2 min
	// after the last (359+120), every second.
	if len(full) != 479-179+1 || full[0] != 179 || full[len(full)-1] != 479 {
		t.Errorf("full frames %d..%d (%d), want 179..479 (301)", first(full), last(full), len(full))
	}
	wantThin := []int{0, 60, 120, 480, 540}
	if len(thinAt) != len(wantThin) {
		t.Fatalf("thin frames at %v, want %v", thinAt, wantThin)
	}
	for i := range wantThin {
		if thinAt[i] != wantThin[i] {
			t.Errorf("thin frames at %v, want %v", thinAt, wantThin)
			break
		}
	}
	if !log.frames[0].Snapshot.VariablesChanged || !log.frames[1].Snapshot.VariablesChanged {
		t.Errorf("the variables change at 50 s (not written) is not carried to the frame at 60 s")
	}
	if log.frames[2].Snapshot.VariablesChanged {
		t.Errorf("frame at 120 s claims a variables change")
	}
}

func TestKeepAroundRefusesZero(t *testing.T) {
	if _, err := newKeepAround(&frameLog{}, 0, 0); err == nil {
		t.Error("a zero --keep-around accepted")
	}
}

func first(xs []int) int {
	if len(xs) == 0 {
		return -1
	}
	return xs[0]
}

func last(xs []int) int {
	if len(xs) == 0 {
		return -1
	}
	return xs[len(xs)-1]
}
