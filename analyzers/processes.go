package analyzers

import (
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// procView indexes the current processlist by state, once per evaluation.
type procView struct {
	all []snapshot.Process
	// byState maps a lower-cased state to indexes into all. Sleeping and
	// daemon threads are left out: their state says nothing about the load.
	byState map[string][]int
	active  int
}

func newProcView(list []snapshot.Process) *procView {
	v := &procView{all: list, byState: map[string][]int{}}
	for i := range list {
		p := &list[i]
		if !isWorking(p) {
			continue
		}
		v.active++
		if p.State != "" {
			k := strings.ToLower(p.State)
			v.byState[k] = append(v.byState[k], i)
		}
	}
	return v
}

// isWorking is true for threads doing something for a client or replication.
func isWorking(p *snapshot.Process) bool {
	if p.Command == "Sleep" || p.IsDaemon() {
		return false
	}
	return p.Command != "" || p.Info != ""
}

// isRunningStatement is true for a thread executing a client statement.
func isRunningStatement(p *snapshot.Process) bool {
	return (p.Command == "Query" || p.Command == "Execute") && p.Info != ""
}

// inStates returns the working threads in any of states (matched without case),
// longest-running first.
func (v *procView) inStates(states ...string) []*snapshot.Process {
	var out []*snapshot.Process
	for _, s := range states {
		for _, i := range v.byState[strings.ToLower(s)] {
			out = append(out, &v.all[i])
		}
	}
	sortByTime(out)
	return out
}

// largestState returns the most common state among working threads.
func (v *procView) largestState() (string, int) {
	best, n := "", 0
	for s, idx := range v.byState {
		if len(idx) > n || (len(idx) == n && s < best) {
			best, n = s, len(idx)
		}
	}
	return best, n
}

// running returns threads executing a statement whose verb is one of verbs,
// running at least minMS, longest first.
func (v *procView) running(minMS int64, verbs ...string) []*snapshot.Process {
	var out []*snapshot.Process
	for i := range v.all {
		p := &v.all[i]
		if !isRunningStatement(p) || p.TimeMS < minMS {
			continue
		}
		if slices.Contains(verbs, snapshot.StatementVerb(p.Info)) {
			out = append(out, p)
		}
	}
	sortByTime(out)
	return out
}

// byID returns the thread with processlist id, or nil.
func (v *procView) byID(id int64) *snapshot.Process {
	for i := range v.all {
		if v.all[i].ID == id {
			return &v.all[i]
		}
	}
	return nil
}

func sortByTime(ps []*snapshot.Process) {
	slices.SortStableFunc(ps, func(a, b *snapshot.Process) int {
		switch {
		case a.TimeMS > b.TimeMS:
			return -1
		case a.TimeMS < b.TimeMS:
			return 1
		}
		return 0
	})
}

// ids returns the processlist ids of ps, at most limit of them.
func ids(ps []*snapshot.Process, limit int) []int64 {
	out := make([]int64, 0, min(len(ps), limit))
	for _, p := range ps {
		if len(out) == limit {
			break
		}
		out = append(out, p.ID)
	}
	return out
}

// excludeStates drops threads in any of states.
func excludeStates(ps []*snapshot.Process, states ...string) []*snapshot.Process {
	out := ps[:0:0]
	for _, p := range ps {
		skip := false
		for _, s := range states {
			if strings.EqualFold(p.State, s) {
				skip = true
			}
		}
		if !skip {
			out = append(out, p)
		}
	}
	return out
}

// procCounts are the per-frame tallies rules compare across a window.
type procCounts struct {
	working   int // threads doing something (see isWorking)
	qcWaiting int // of them, in "Waiting for query cache lock"
	tlWaiting int // of them, waiting for a table-level lock
	deepPages int // running SELECTs with an OFFSET of at least deepOffset
	// writes are the indexes of the threads running an UPDATE or DELETE, so
	// the recurring-scan rule walks a handful of rows per sample, not 5,000
	writes []int32
	// selects are the indexes of the threads running a SELECT, for the
	// recurring full-scan SELECT rule.
	selects []int32
	// routine are the sessions doing routine work (routine.go).
	routine []routineSeen
}

func countProcesses(list []snapshot.Process, deepOffset int64) procCounts {
	var c procCounts
	c.routine = routineIn(list)
	for i := range list {
		p := &list[i]
		if !isWorking(p) {
			continue
		}
		c.working++
		if strings.EqualFold(p.State, qcWaitState) {
			c.qcWaiting++
		}
		if inTableLockState(p.State) {
			c.tlWaiting++
		}
		if _, ok := deepPage(p, deepOffset); ok {
			c.deepPages++
		}
		if p.Command == "Query" && findsRowsToChange(p.Info) {
			c.writes = append(c.writes, int32(i))
		}
		if p.Command == "Query" && snapshot.StatementVerb(p.Info) == "SELECT" {
			c.selects = append(c.selects, int32(i))
		}
	}
	return c
}
