package report

import (
	"slices"
	"testing"

	"github.com/mytop-go/mytop-go/analyzers"
)

// Each finding whose evidence counters the charts draw is a rule's ID: a
// key no rule raises draws nothing, silently.
func TestFindingCountersNameRules(t *testing.T) {
	ids := analyzers.RuleIDs()
	for id := range findingCounters {
		if !slices.Contains(ids, id) {
			t.Errorf("findingCounters names %q, which no rule raises", id)
		}
	}
}
