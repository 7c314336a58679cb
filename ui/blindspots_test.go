package ui

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/visibility"
)

func TestBlindSpotsInTheHeaderAndTheirList(t *testing.T) {
	f := &snapshot.Frame{
		Snapshot: &snapshot.Snapshot{Collectors: map[snapshot.CollectorName]snapshot.CollectorState{
			snapshot.CollectorInnoDB: {Unavailable: "needs the PROCESS privilege"},
		}},
		NotApplicable: map[string]string{
			"deadlock":         "innodb collector unavailable: needs the PROCESS privilege",
			"long_transaction": "innodb collector unavailable: needs the PROCESS privilege",
			"replication_lag":  "not a replica",
		},
	}
	if got := blindMark(f); !strings.Contains(got, "BLIND 2") {
		t.Errorf("header mark %q, want BLIND 2", got)
	}
	text := blindText(f)
	for _, want := range []string{"innodb", "needs the PROCESS privilege", "deadlock, long_transaction", "GRANT PROCESS ON *.* TO"} {
		if !strings.Contains(text, want) {
			t.Errorf("list lacks %q:\n%s", want, text)
		}
	}
	healthy := &snapshot.Frame{Snapshot: &snapshot.Snapshot{}, NotApplicable: map[string]string{"replication_lag": "not a replica"}}
	if got := blindMark(healthy); got != "" {
		t.Errorf("nothing is hidden, yet the header says %q", got)
	}
}

// The header works the blind spots out once per frame, however often it is
// drawn (each key press, resize and clock tick draws it).
func TestBlindSpotsWorkedOutOncePerFrame(t *testing.T) {
	builds := 0
	real := buildVisibility
	buildVisibility = func(fs []*snapshot.Frame, a visibility.Account, p []visibility.Spot) visibility.Report {
		builds++
		return real(fs, a, p)
	}
	t.Cleanup(func() { buildVisibility = real })
	d := New(Options{})
	d.Update(incidentFrame())
	for range 10 {
		screenOf(d, 120, 30)
	}
	if builds != 1 {
		t.Errorf("%d visibility reports for one frame drawn 10 times, want 1", builds)
	}
	d.Update(incidentFrame())
	screenOf(d, 120, 30)
	if builds != 2 {
		t.Errorf("%d reports after a second frame, want 2", builds)
	}
}
