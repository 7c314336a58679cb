package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Rules that cannot run for the same reason share one line, so a user without
// PROCESS reads each missing privilege once and every reason fits the panel.
func TestNotApplicableGroupedByReason(t *testing.T) {
	f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)},
		NotApplicable: map[string]string{
			"long_transaction": "innodb collector unavailable: needs the PROCESS privilege",
			"deadlock":         "innodb collector unavailable: needs the PROCESS privilege",
			"replication_lag":  "needs the SLAVE MONITOR (or REPLICATION CLIENT) privilege",
		}}
	text := ScreenText(Render(f, 160, 40, nil))
	var na []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "n/a ") && strings.Contains(l, "not applicable") {
			na = append(na, l)
		}
	}
	if len(na) != 2 {
		t.Fatalf("%d not-applicable lines, want 2 (one per reason):\n%s", len(na), text)
	}
	mustContain(t, na[0], "2 rules", "deadlock, long_transaction: not applicable: innodb collector unavailable")
	mustContain(t, na[1], "replication_lag", "not applicable: needs the SLAVE MONITOR")
}
