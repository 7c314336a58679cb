package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestFewerQueriesUnderAScannerAreNoStatement: a reader that does not
// slow with the application (a monitoring agent scanning the information
// schema: 84,000 rows a second on the crowded normal) is part of the
// normal. When a lock convoy cuts the application's queries to a
// fifteenth, the rows read per query rise fifteenfold though nothing reads
// more: the convoy is what changed, not a statement.
func TestFewerQueriesUnderAScannerAreNoStatement(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 2 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			tr, s := New(DefaultConfig()), newSim(61, step)
			convoy := epoch.Add(20 * time.Minute)
			s.fault, s.faultAt = func(smp *sample) {
				if !s.now.Before(convoy) {
					lockConvoy(smp)
					for _, k := range []string{"Questions", "Com_insert", "Com_update", "Com_delete", "Com_commit",
						"Innodb_rows_read", "Handler_read_rnd_next", "Bytes_sent", "Bytes_received"} {
						smp.rates[k] *= 0.14 // with lockConvoy's half: a fifteenth
					}
				}
				smp.rates["Handler_read_rnd_next"] += 84000 * s.noise(0.02)
				smp.rates["Innodb_rows_read"] += 84000 * s.noise(0.02)
			}, epoch
			run(tr, s, 20*time.Minute, nil)
			var last *snapshot.Frame
			run(tr, s, 30*time.Second, func(f *snapshot.Frame) { last = f })
			if len(last.Onsets) == 0 {
				t.Fatal("no onset in the convoy")
			}
			if o := last.Onsets[0]; o.Cause != snapshot.CauseLocks {
				t.Errorf("first cause %q (%s), want %q", o.Cause, o.Title, snapshot.CauseLocks)
			}
			for _, o := range last.Onsets {
				if o.Cause == snapshot.CauseStatement {
					t.Errorf("a statement named at rank %d: %s %v", o.Rank, o.Title, o.Signals)
				}
			}
		})
	}
}
