package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// linkedFrame is the seed incident as the analyzers link it: the full-scan
// UPDATEs cause the table-lock queue, plus a tail of info findings.
func linkedFrame() *snapshot.Frame {
	f := incidentFrame()
	f.Findings = []snapshot.Finding{
		{ID: "full_scan_update", Severity: snapshot.Critical, Since: t0.Add(-30 * time.Second), Threads: []int64{5121, 5122, 5123},
			Title: "UPDATE app.m scans the whole table (~400,000 rows) again and again"},
		{ID: "table_lock_contention", Severity: snapshot.Warning, Since: t0.Add(-20 * time.Second),
			Title: "597 threads wait for table-level locks", CausedBy: []string{"full_scan_update"},
			CauseThreads: []int64{5121, 5122, 5123}, Evidence: []string{"597 threads in 'Waiting for table level lock'"}},
	}
	for i := 0; i < 8; i++ {
		f.Findings = append(f.Findings, snapshot.Finding{ID: "info_" + string(rune('a'+i)), Severity: snapshot.Info,
			Since: t0.Add(-time.Duration(i) * time.Second), Title: "something minor"})
	}
	return f
}

func TestFindingsRootCauseLineOnTop(t *testing.T) {
	d := New(Options{})
	d.Update(linkedFrame())
	lines := strings.Split(screenOf(d, 80, 24), "\n")
	row := -1
	for i, l := range lines {
		if strings.Contains(l, "Findings (10)") {
			row = i
		}
	}
	if row < 0 || !strings.Contains(lines[row+1], "ROOT CAUSE UPDATE app.m scans the whole table") {
		t.Fatalf("the root-cause line must be first in the panel:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.Contains(lines[row+2], "CRIT full_scan_update") {
		t.Errorf("the most severe finding must follow it:\n%s", strings.Join(lines, "\n"))
	}
	// The full line names what it causes and the threads to act on.
	d2 := New(Options{})
	d2.Update(linkedFrame())
	mustContain(t, screenOf(d2, 250, 40), "behind it: 597 threads wait for table-level locks; act on threads 5121, 5122, 5123",
		"597 threads wait for table-level locks ← full_scan_update")
}

func TestFindingsMostSevereStaysInViewAt80x24(t *testing.T) {
	d := New(Options{})
	d.Update(linkedFrame())
	pressKey(d, tcell.KeyTab)
	for i := 0; i < 9; i++ {
		pressKey(d, tcell.KeyDown) // down to the last info row
	}
	if f := d.findings.selected(); f == nil || f.ID != "info_a" {
		t.Fatalf("selected %+v, want the last info finding", f)
	}
	s := screenOf(d, 80, 24)
	mustContain(t, s, "ROOT CAUSE", "CRIT full_scan_update", "info_a")
}

func TestFindingsDetailSaysWhatCausedIt(t *testing.T) {
	d := New(Options{})
	d.Update(linkedFrame())
	pressKey(d, tcell.KeyTab)
	pressKey(d, tcell.KeyDown)
	mustContain(t, screenOf(d, 120, 40), "caused by full_scan_update (threads 5121, 5122, 5123)")
}

func TestFindingsNoRootLineWithoutLinks(t *testing.T) {
	d := New(Options{})
	d.Update(incidentFrame())
	mustNotContain(t, screenOf(d, 120, 40), "ROOT CAUSE")
}
