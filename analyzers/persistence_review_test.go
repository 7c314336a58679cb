package analyzers

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// ruleLogic is DefaultConfig with rules ids at the engine's default
// persistence: their table tests judge what the rule raises on short series;
// TestRulePersistence proves each rule's own persistence.
func ruleLogic(ids ...string) Config {
	c := DefaultConfig()
	c.Persistence = map[string]Persistence{}
	for k, v := range DefaultConfig().Persistence {
		c.Persistence[k] = v
	}
	for _, id := range ids {
		c.Persistence[id] = c.DefaultPersistence
	}
	return c
}

// TestRulePersistence: the counter rules whose sources speak in minutes wait
// their own seconds (the routine-work review), raise after exactly that long held, and a
// burst shorter than it never raises.
func TestRulePersistence(t *testing.T) {
	swapOut := func(i int, s *snapshot.Snapshot) { swap(10, 120, 30)(i, s) }
	cases := []struct {
		id     string
		onset  time.Duration
		signal edit
	}{
		{IDSortMergePasses, 30 * time.Second, counters(map[string]float64{sortMerge: 12, "Sort_scan": 20, "Sort_range": 0})},
		{IDLogBufferWaits, 5 * time.Second, counter("Innodb_log_waits", 0, 25)},
		{IDCPUSaturation, 10 * time.Second, cpuLoad(4, 9, 5)},
		{IDDiskSaturation, 10 * time.Second, disk("sda", 90, 60, 400)},
		{IDSwapping, 10 * time.Second, swapOut},
		{IDInnoDBThreadQueue, 5 * time.Second, innodbRows(8, 5, true)},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			cfg := DefaultConfig()
			if got := cfg.persistence(c.id).RaiseAfter; got != c.onset {
				t.Fatalf("persistence %v, want %v", got, c.onset)
			}
			n := int(c.onset/time.Second) + 3
			e := NewEngine(DefaultConfig())
			fs := frames(series(n, c.signal))
			first := -1
			for i := range fs {
				got, _ := e.Evaluate(fs[:i+1])
				for _, f := range got {
					if f.ID == c.id && f.Severity > snapshot.Info && first < 0 {
						first = i
					}
				}
			}
			// The signal starts at frame 1 (the first with rates) for counter
			// rules, or frame 0 for gauges: raised n-1 or n frames later.
			if held := time.Duration(first) * time.Second; first < 0 || held < c.onset-time.Second || held > c.onset {
				t.Errorf("raised at frame %d, want after %v held", first, c.onset)
			}
			// A burst one second shorter than the persistence never raises.
			burst := int(c.onset/time.Second) - 1
			e = NewEngine(DefaultConfig())
			fs = frames(series(burst, c.signal))
			for i := range fs {
				if got, _ := e.Evaluate(fs[:i+1]); findingOf(got, c.id) {
					t.Errorf("a %d-s burst raised at frame %d", burst, i)
				}
			}
		})
	}
}

// findingOf reports rule id raised above info: a held rate's info stage
// stands before its hold is over (held_rate.go).
func findingOf(fs []snapshot.Finding, id string) bool {
	for _, f := range fs {
		if f.ID == id && f.Severity > snapshot.Info {
			return true
		}
	}
	return false
}
