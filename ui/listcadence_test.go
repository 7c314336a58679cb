package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The processlist's title says when the full list is read less often than
// every tick and why, at 80 columns too, and how old a carried frame's idle
// rows are where there is room.
func TestCadenceNote(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	c := &snapshot.ListCadence{FullAt: t0.Add(-2 * time.Second), Every: 4 * time.Second, Cost: 18300 * time.Microsecond, Budget: 5 * time.Millisecond}
	for _, tc := range []struct {
		name      string
		s         *snapshot.Snapshot
		note, age string
	}{
		{"read every tick", &snapshot.Snapshot{Time: t0}, "", ""},
		{"read in full this tick", &snapshot.Snapshot{Time: t0.Add(-2 * time.Second), ListCadence: c},
			"full list every 4s: a read costs 18.3ms", ""},
		{"carried", &snapshot.Snapshot{Time: t0, ListCadence: c}, "full list every 4s: a read costs 18.3ms", "idle rows 2s old"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if note, age := cadenceNote(tc.s); note != tc.note || age != tc.age {
				t.Errorf("note %q, %q, want %q, %q", note, age, tc.note, tc.age)
			}
		})
	}
	l := newProcList()
	l.set(make([]snapshot.Process, 5005))
	note, age := cadenceNote(&snapshot.Snapshot{Time: t0, ListCadence: c})
	if title := l.describe(200, "", note, age); !strings.Contains(title, "(full list every 4s: a read costs 18.3ms)  (idle rows 2s old)") {
		t.Errorf("title %q does not say how the list is read", title)
	}
	if title := l.describe(80, "", note, age); !strings.Contains(title, "(full list every 4s: a read costs 18.3ms)") {
		t.Errorf("80-column title %q drops how the list is read", title)
	}
}
