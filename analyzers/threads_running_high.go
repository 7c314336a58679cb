package analyzers

import (
	"fmt"
	"sort"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Threads_running above ThreadsRunningWarn (pt-stalk's default trigger, 25)
// is a pile-up (CONC-01). The state histogram says what they pile up on; the
// CPU count says whether they could all run at once.
func checkThreadsRunningHigh(w *window, c *Config) verdict {
	if r := w.statusNA("Threads_running"); r != "" {
		return notApplicable(r)
	}
	running, ok := w.snap.StatusInt("Threads_running")
	running-- // the monitor's own connection
	if !ok || running <= c.ThreadsRunningWarn {
		return quiet()
	}
	title := fmt.Sprintf("%d threads running", running)
	if h := w.snap.Host; h != nil && h.NumCPU > 0 {
		title += fmt.Sprintf(" on %d CPUs", h.NumCPU)
	}
	ev := []string{fmt.Sprintf("Threads_running %d (not counting this monitor), warn above %d", running,
		c.ThreadsRunningWarn)}
	ev = appendNonEmpty(ev, stateHistogram(w.processes()), w.hostFigures())
	ev = append(ev, topStatements(w.processes().running(0, "SELECT", "UPDATE", "DELETE", "INSERT", "REPLACE"))...)
	return raise(snapshot.Warning, title, ev,
		"Look at the largest state above: lock waits point at the blocking statement (see the other findings), "+
			"\"Sending data\"/\"executing\" at statements to index; cap concurrency in the pool or "+
			"thread_pool if the CPUs are saturated.", nil)
}

// stateHistogram is "states: Sending data 12, Waiting for query cache lock 9, …".
func stateHistogram(v *procView) string {
	type kv struct {
		state string
		n     int
	}
	var all []kv
	for s, idx := range v.byState {
		all = append(all, kv{s, len(idx)})
	}
	if len(all) == 0 {
		return ""
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].state < all[j].state
	})
	out := "states:"
	for i, e := range all {
		if i == 6 {
			out += " …"
			break
		}
		sep := ","
		if i == 0 {
			sep = ""
		}
		out += fmt.Sprintf("%s %s %d", sep, e.state, e.n)
	}
	return out
}
