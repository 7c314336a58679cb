package collectors

import (
	"slices"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestEveryScheduledCollectorHasAPart: each collector of the live schedule,
// and the host sampler beside it, has its row in snapshot.Parts (its text
// masked, its absence from a capture said, its panels named), and a schedule
// with a collector whose row was left out is refused, naming it.
func TestEveryScheduledCollectorHasAPart(t *testing.T) {
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr = "tcp", "127.0.0.1:1"
	l, err := NewLive(LiveOptions{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	names := []snapshot.CollectorName{(&Host{}).Name()}
	for _, e := range l.entries {
		names = append(names, e.c.Name())
	}
	for _, n := range names {
		if _, ok := snapshot.PartOf(n); !ok {
			t.Errorf("collector %s has no row in snapshot.Parts", n)
		}
	}
	for _, left := range []snapshot.CollectorName{snapshot.CollectorReplica, snapshot.CollectorAccountLimits} {
		parts := slices.DeleteFunc(slices.Clone(snapshot.Parts), func(p snapshot.Part) bool { return p.Collector == left })
		_, err := l.opts.timed(l.schedule(), parts)
		if err == nil || !strings.Contains(err.Error(), string(left)) {
			t.Errorf("schedule timed without %s's row: err = %v", left, err)
		}
	}
}

// TestEveryPeriodFlagHasItsOption: a row of snapshot.Parts with a flag sets
// a LiveOptions field, and every such field has its flag.
func TestEveryPeriodFlagHasItsOption(t *testing.T) {
	flagged := 0
	for _, p := range snapshot.Parts {
		if p.Flag == "" {
			continue
		}
		flagged++
		if _, ok := periodOptions[p.Collector]; !ok {
			t.Errorf("%s: flag -%s sets no LiveOptions field (periodOptions)", p.Collector, p.Flag)
		}
	}
	if flagged != len(periodOptions) || len(periods) != flagged {
		t.Errorf("%d rows with a flag, %d period options, %d periods", flagged, len(periodOptions), len(periods))
	}
}
