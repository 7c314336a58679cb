package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestFindingsPanelNewAboveChronic: the onset is the ROOT CAUSE line, a new
// warning is listed above a chronic critical, which says since when it has
// been steady, and the title carries the baseline's word.
func TestFindingsPanelNewAboveChronic(t *testing.T) {
	at := time.Date(2026, 12, 7, 14, 2, 0, 0, time.UTC)
	f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: at},
		Findings: []snapshot.Finding{
			{ID: "row_lock_waits", Severity: snapshot.Critical, Title: "row lock waits", Since: at.Add(-time.Hour),
				Chronic: true, ChronicSince: at.Add(-12 * time.Minute)},
			{ID: "cpu_saturation", Severity: snapshot.Warning, Title: "CPU saturated", Since: at.Add(-5 * time.Second)},
		},
		Onsets: []snapshot.Onset{
			{At: at.Add(-7 * time.Second), Cause: snapshot.CauseCPUOutside, Rank: 1,
				Title:    "CPU taken by a process outside mysqld: stress-ng (pid 4242) 1.9 CPUs",
				Evidence: []string{"CPU outside mysqld % 3 -> 95 % (x32)"}},
			{At: at.Add(-5 * time.Second), Cause: snapshot.CauseLocks, Rank: 2},
		},
		Normal: &snapshot.Normal{Ready: true, Note: "baseline: 30 min of normal"},
	}
	p := newFindingsPanel()
	p.set(f)
	if p.findings[0].ID != "cpu_saturation" || p.findings[1].ID != "row_lock_waits" {
		t.Errorf("order %s, %s: want the new finding first", p.findings[0].ID, p.findings[1].ID)
	}
	for _, want := range []string{"ROOT CAUSE", "since 14:01:53", "stress-ng", "x32", "then locks"} {
		if !strings.Contains(p.root, want) {
			t.Errorf("root line %q lacks %q", p.root, want)
		}
	}
	if cells := findingCells(at, &p.findings[1]); !strings.Contains(cells[3].text, "chronic, steady since before 13:50") {
		t.Errorf("chronic finding reads %q", cells[3].text)
	}
	if !strings.Contains(p.title(), "baseline: 30 min of normal") {
		t.Errorf("title %q", p.title())
	}
}
