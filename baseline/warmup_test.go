package baseline

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestWarmUpJudgesNothing: a fault in the first minutes is not judged (no
// normal to judge it against), and the frame says how much history there is.
func TestWarmUpJudgesNothing(t *testing.T) {
	tr, s := New(DefaultConfig()), newSim(3, time.Second)
	run(tr, s, 2*time.Minute, nil)
	s.fault, s.faultAt = faults[0].apply, s.now
	var last *snapshot.Frame
	run(tr, s, time.Minute, func(f *snapshot.Frame) {
		last = f
		if len(f.Onsets) > 0 {
			t.Fatalf("onset during the warm-up: %+v", f.Onsets[0])
		}
	})
	if last.Normal.Ready || last.Normal.Note != "no baseline yet (3 min of history)" {
		t.Errorf("normal %+v, want not ready with 3 min of history", last.Normal)
	}
}

// TestRestartStartsAfresh: the server's uptime going down forgets the
// baseline, as the counters and caches it was built on are gone.
func TestRestartStartsAfresh(t *testing.T) {
	tr, s := New(DefaultConfig()), newSim(4, 5*time.Second)
	run(tr, s, 10*time.Minute, nil)
	s.uptime = 10
	f := s.next()
	tr.Observe(f, nil)
	if f.Normal.Ready || f.Normal.HistoryMinutes != 0 || len(f.Onsets) > 0 {
		t.Errorf("after a restart: %+v, onsets %d", f.Normal, len(f.Onsets))
	}
	run(tr, s, 6*time.Minute, nil)
	f = s.next()
	tr.Observe(f, nil)
	if !f.Normal.Ready {
		t.Errorf("not ready 6 min after the restart: %+v", f.Normal)
	}
}

// TestChronicFindingsBelowNew: a finding standing through the baseline is
// chronic, dated from the oldest bucket it stood in, and a new one is listed
// above it.
func TestChronicFindingsBelowNew(t *testing.T) {
	tr, s := New(DefaultConfig()), newSim(5, time.Second)
	end := s.now.Add(20 * time.Minute)
	for s.now.Before(end) {
		f := s.next()
		f.Findings = []snapshot.Finding{{ID: "row_lock_waits", Severity: snapshot.Warning, Since: epoch}}
		tr.Observe(f, nil)
	}
	f := s.next()
	f.Findings = []snapshot.Finding{{ID: "row_lock_waits", Severity: snapshot.Critical},
		{ID: "cpu_saturation", Severity: snapshot.Warning}}
	tr.Observe(f, nil)
	if f.Findings[0].ID != "cpu_saturation" || f.Findings[0].Chronic {
		t.Errorf("first finding %+v, want the new cpu_saturation", f.Findings[0])
	}
	chronic := f.Findings[1]
	if !chronic.Chronic || chronic.ChronicSince.After(epoch.Add(20*time.Second)) {
		t.Errorf("row_lock_waits %+v, want chronic since the start", chronic)
	}
	if !strings.HasPrefix(f.Normal.Note, "baseline: 20 min") {
		t.Errorf("note %q", f.Normal.Note)
	}
}
