package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The query cache is one global lock: every write to a table invalidates its
// cached results under it, so writers and readers queue in
// "Waiting for query cache lock" while the CPUs sit idle (the query-cache write-up, QC-01).
const qcWaitState = "Waiting for query cache lock"

// qcWorkStates are the normal query-cache states (§5); they are context, not
// proof: every SELECT passes through them while the cache is on.
var qcWorkStates = []string{
	"checking query cache for query", "invalidating query cache entries",
	"storing result in query cache", "sending cached result to client",
	"checking privileges on cached query",
}

// IDQueryCacheContention names the findings of query_cache_contention: a
// contract (the README's findings table), stable, never reused.
const IDQueryCacheContention = "query_cache_contention"

// QueryCacheConfig holds query_cache_contention's thresholds, each with its source
// and the trap it avoids.
type QueryCacheConfig struct {
	// QCWaitersWarn: threads in "Waiting for query cache lock" (QC-01; count
	// is a design choice, the persistence is PTS 5 x 1 s).
	// Trap: one waiter for a microsecond is normal with the cache on: 5
	// frames in a row.
	QCWaitersWarn int

	// QCWaitSightingsMin and QCWaitShareMin: over the last SightingWindow
	// samples, at least QCWaitSightingsMin thread sightings in
	// "Waiting for query cache lock" that make at least QCWaitShareMin % of
	// all working-thread sightings. No public number exists (§9.1); calibrated
	// in the lab on the query-cache write-up's mariadb-slap key workload (MariaDB 10.11,
	// 10 clients, 128M cache), where 20–55 % of working-thread sightings
	// were waiting; the default sits below that range.
	// Trap: a share over a handful of working threads (QCWaitSightingsMin is
	// the denominator's floor).
	QCWaitSightingsMin int
	QCWaitShareMin     float64

	// SerialisedIdleMin: CPU idle % at or above which threads queueing on a
	// lock read as a serialised server, not one short of CPU (the query-cache write-up:
	// 4–8 runnable threads at 70 % idle; number UNKNOWN).
	// Trap: calling a lock queue CPU starvation.
	SerialisedIdleMin float64
}

func (c *QueryCacheConfig) defaults() {
	*c = QueryCacheConfig{
		QCWaitersWarn:      1,
		QCWaitSightingsMin: 3,
		QCWaitShareMin:     15,
		SerialisedIdleMin:  50,
	}
}

// queryCacheContentionRule is query_cache_contention in the rules table
// (rule.go). PTS --cycles 5 --interval 1 for state pile-ups (QC-01, LOCK-01,
// CONC-01).
var queryCacheContentionRule = rule{id: IDQueryCacheContention, check: checkQueryCacheContention, persist: persistFor(5*time.Second, 5*time.Second)}

func checkQueryCacheContention(w *window, c *Config) verdict {
	if r := queryCacheNA(w); r != "" {
		return notApplicable(r)
	}
	if r := w.unavailable(snapshot.CollectorProcesslist); r != "" {
		return notApplicable(r)
	}
	pv := w.processes()
	waiters := pv.inStates(qcWaitState)
	seen := qcSightingsOver(w, c.SightingWindow)
	pileUp := len(waiters) >= max(c.QCWaitersWarn, 1)
	if !pileUp && !seen.recurring(c) {
		return quiet()
	}
	writers := pv.running(0, "UPDATE", "DELETE", "INSERT", "REPLACE")
	writers = excludeStates(writers, qcWaitState)
	sev := snapshot.Warning
	if pileUp && qcWaitersDominate(w, c, len(waiters)) {
		sev = snapshot.Critical
	}
	title := fmt.Sprintf("%d threads wait for the query cache lock", len(waiters))
	if !pileUp {
		title = fmt.Sprintf("threads keep queueing for the query cache lock: %.0f %% of working threads seen "+
			"waiting over %d samples", seen.share(), seen.frames)
	}
	if len(writers) > 0 {
		title += fmt.Sprintf("; %d writes run meanwhile", len(writers))
	}
	if len(waiters) == 0 {
		waiters = recentQCWaiters(w, c.SightingWindow)
	}
	return raise(sev, title, qcEvidence(w, waiters, writers, seen),
		"Switch the query cache off: SET GLOBAL query_cache_type=0; SET GLOBAL query_cache_size=0, and put "+
			"query_cache_type=0 and query_cache_size=0 in my.cnf so it stays off; cache in the application or "+
			"a proxy instead. If it must stay on, keep query_cache_size at or below 128M and fix the slow "+
			"writes that hold the lock (see full_scan_update).",
		append(ids(waiters, maxThreadIDs), ids(writers, maxThreadIDs)...))
}

// queryCacheNA says why the query cache cannot be contended on this server.
func queryCacheNA(w *window) string {
	if len(w.snap.Variables) == 0 {
		// Captures of SHOW STATUS alone still tell whether a cache exists.
		if len(w.snap.Status) > 0 && !w.hasStatus("Qcache_total_blocks") && !w.hasStatus("Qcache_hits") {
			return "server reports no query cache counters"
		}
		// An allocated cache always has at least one (free) block.
		if blocks, ok := w.snap.StatusInt("Qcache_total_blocks"); ok && blocks == 0 {
			return "query cache is off (Qcache_total_blocks=0)"
		}
		return ""
	}
	if have, ok := w.variable("have_query_cache"); ok && strings.EqualFold(have, "NO") {
		return "server built without the query cache (have_query_cache=NO)"
	}
	typ, ok := w.variable("query_cache_type")
	if !ok {
		return "server has no query cache (no query_cache_type variable; removed in MySQL 8.0)"
	}
	if strings.EqualFold(typ, "OFF") || typ == "0" {
		return "query cache is off (query_cache_type=" + typ + ")"
	}
	if size, ok := w.snap.VarFloat("query_cache_size"); ok && size == 0 {
		return "query cache is off (query_cache_size=0)"
	}
	return ""
}

// qcWaitersDominate applies QC-01's number-free critical policy: the waiters
// are the largest state among working threads while Threads_running is above
// its own warning level.
func qcWaitersDominate(w *window, c *Config, waiters int) bool {
	_, largest := w.processes().largestState()
	running, ok := w.snap.StatusInt("Threads_running")
	return ok && waiters >= largest && running-1 > c.ThreadsRunningWarn
}

// qcSightings tallies, over recent frames, threads seen waiting for the
// query cache lock among all working threads seen. A 1-s sample catches a
// convoy of microsecond lock holds only now and then; the tally over many
// samples shows how much of the threads' time goes to waiting.
type qcSightings struct{ waiting, working, frames int }

func qcSightingsOver(w *window, n int) qcSightings {
	var s qcSightings
	for _, f := range w.recent(max(n, 1)) {
		c := w.countsOf(f)
		s.waiting += c.qcWaiting
		s.working += c.working
		s.frames++
	}
	return s
}

// share is the percentage of working-thread sightings that were waiting.
func (s qcSightings) share() float64 {
	if s.working == 0 {
		return 0
	}
	return 100 * float64(s.waiting) / float64(s.working)
}

func (s qcSightings) recurring(c *Config) bool {
	return s.waiting >= c.QCWaitSightingsMin && s.share() >= c.QCWaitShareMin
}

// recentQCWaiters returns the threads last seen waiting in recent frames,
// newest sighting first, one per thread.
func recentQCWaiters(w *window, n int) []*snapshot.Process {
	seen := map[int64]bool{}
	var out []*snapshot.Process
	frames := w.recent(max(n, 1))
	for i := len(frames) - 1; i >= 0; i-- {
		if w.countsOf(frames[i]).qcWaiting == 0 {
			continue
		}
		list := frames[i].Snapshot.Processlist
		for k := range list {
			p := &list[k]
			if isWorking(p) && strings.EqualFold(p.State, qcWaitState) && !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
	}
	return out
}

func qcEvidence(w *window, waiters, writers []*snapshot.Process, seen qcSightings) []string {
	pv := w.processes()
	var ev []string
	if n := w.countsOf(w.cur).qcWaiting; n > 0 {
		ev = append(ev, fmt.Sprintf("%d of %d working threads in %q now, oldest %s",
			n, pv.active, qcWaitState, fmtMS(waiters[0].TimeMS)))
	}
	ev = append(ev, fmt.Sprintf("over the last %d samples %d of %d working-thread sightings (%.0f %%) were in %q",
		seen.frames, seen.waiting, seen.working, seen.share(), qcWaitState))
	if busy := pv.inStates(qcWorkStates...); len(busy) > 0 {
		ev = append(ev, fmt.Sprintf("%d more in other query cache states", len(busy)))
	}
	for _, s := range topStatements(waiters) {
		ev = append(ev, "waiting: "+s)
	}
	for _, l := range threadLines(writers[:min(len(writers), maxContextLines)]) {
		ev = append(ev, "writing: "+l)
	}
	ev = appendNonEmpty(ev, qcSettings(w), qcCounters(w), w.hostFigures())
	if hr := w.hostRates(); hr != nil && hr.CPU.Total() > 0 && hr.CPU.Idle >= w.cfg.SerialisedIdleMin {
		ev = append(ev, "CPUs mostly idle while threads queue: the server is serialised on one lock, not short of hardware")
	}
	return ev
}

func qcSettings(w *window) string {
	typ, ok1 := w.variable("query_cache_type")
	size, ok2 := w.snap.VarFloat("query_cache_size")
	if !ok1 || !ok2 {
		return ""
	}
	return fmt.Sprintf("query_cache_type=%s, query_cache_size=%s", typ, fmtBytes(size))
}

// qcCounters sets the write rate (what invalidates) beside the cache's own work.
func qcCounters(w *window) string {
	hits, ok := w.rate("Qcache_hits")
	if !ok {
		return ""
	}
	var writes float64
	for _, n := range []string{"Com_insert", "Com_update", "Com_delete", "Com_replace"} {
		r, _ := w.rate(n)
		writes += r
	}
	ins, _ := w.rate("Qcache_inserts")
	prunes, _ := w.rate("Qcache_lowmem_prunes")
	return fmt.Sprintf("per second: writes %s (Com_insert+update+delete+replace), Qcache_hits %s, "+
		"Qcache_inserts %s, Qcache_lowmem_prunes %s (interval %.1f s)",
		fmtRate(writes), fmtRate(hits), fmtRate(ins), fmtRate(prunes), w.rates.Interval)
}
