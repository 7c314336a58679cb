package ui

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
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
