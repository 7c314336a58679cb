package analyzers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Threads wait on an InnoDB latch (CONC-04): the SEMAPHORES wait array lists
// each with the file:line it waits at, the latch and for how long. Short
// waits are routine under load; a wait of SemaphoreWaitWarnSeconds (10 s) is
// a warning; from InnoDB's own long-wait limit
// (SYNC_ARRAY_TIMEOUT, 240 s, after which the server writes "long semaphore
// wait" warnings to its error log) it is critical: at
// innodb_fatal_semaphore_wait_threshold (600 s by default) the server kills
// itself on purpose. MariaDB 10.6+ prints an empty section, so the rule
// cannot run there.

// latchHints name what a waiting file usually means (CONC-04 evidence).
var latchHints = map[string]string{
	"btr0sea": "adaptive hash index",
	"dict0":   "data dictionary / index tree latch",
	"btr0cur": "index tree (B-tree) latch",
	"buf0buf": "buffer pool page hash",
	"hash0":   "buffer pool page hash",
	"lock0":   "lock system",
	"trx0":    "transaction system",
	"log0":    "redo log",
	"fil0":    "tablespace (file) latch",
	"fsp0":    "tablespace space-management latch",
	"row0ins": "index tree (B-tree) latch",
	"ibuf0":   "change buffer",
}

// latchGroup is the waits at one site on one latch.
type latchGroup struct {
	site, kind, latch string
	n                 int
	longest           float64
	holders           map[string]string // holder OS thread -> mode
}

// IDSemaphoreWaits names the findings of semaphore_waits: a contract (the
// README's findings table), stable, never reused.
const IDSemaphoreWaits = "semaphore_waits"

// SemaphoreConfig holds semaphore_waits' thresholds, each with its source and the
// trap it avoids.
type SemaphoreConfig struct {
	// SemaphoreWaitWarnSeconds: a latch wait this long in the SEMAPHORES wait
	// array is a warning. CONC-04 says any wait present; waits of 0–1 s are
	// latches the sample happened to catch mid-spin (most of the 164 waits in
	// one pt-mysql-summary sample), and waits of a few seconds are routine
	// under a write load (a page split holding an index latch, the adaptive
	// hash index rebuilt after a DDL). 10 s is where a latch stalls every
	// statement on that index (the same 10 s innotop greens a lock wait at,
	// IT L2552; UNKNOWN for latches, design).
	// SemaphoreWaitCritSeconds: InnoDB's own long-wait limit
	// (SYNC_ARRAY_TIMEOUT = 240 s, sync0arr.cc), after which it warns in the
	// error log ("long semaphore wait") and, at
	// innodb_fatal_semaphore_wait_threshold (600 s), aborts.
	// Trap: short latch waits under load (the routine-work review: any wait of 1 s raised),
	// and a latch the sample caught mid-spin.
	SemaphoreWaitWarnSeconds float64
	SemaphoreWaitCritSeconds float64
}

func (c *SemaphoreConfig) defaults() {
	*c = SemaphoreConfig{
		SemaphoreWaitWarnSeconds: 10,
		SemaphoreWaitCritSeconds: 240,
	}
}

// semaphoreWaitsRule is semaphore_waits in the rules table (rule.go). The
// wait's own age, and the growth over minutes, already prove the signal
// lasts; the InnoDB status is also shared by the ticks between two reads, so
// counting frames would count one sample.
var semaphoreWaitsRule = rule{id: IDSemaphoreWaits, check: checkSemaphoreWaits, persist: persistFor(1*time.Second, 3*time.Second)}

func checkSemaphoreWaits(w *window, c *Config) verdict {
	if r := innodbNA(w); r != "" {
		return notApplicable(r)
	}
	if r := semaphoresNA(w); r != "" {
		return notApplicable(r)
	}
	in := w.snap.InnoDB
	if in == nil || !in.Semaphores.Present {
		return quiet()
	}
	long := longWaits(in.Semaphores.WaitList, c.SemaphoreWaitWarnSeconds)
	if len(long) == 0 {
		return quiet()
	}
	sev := snapshot.Warning
	if in.Semaphores.LongestWaitSeconds >= c.SemaphoreWaitCritSeconds {
		sev = snapshot.Critical
	}
	groups := groupWaits(long)
	g := groups[0]
	title := fmt.Sprintf("%d threads wait on InnoDB latches, longest %.0f s; hottest: %d at %s on %s",
		len(long), in.Semaphores.LongestWaitSeconds, g.n, g.site, latchLabel(g))
	ev, threads := semaphoreEvidence(w, in, groups, long)
	return raise(sev, title, ev, semaphoreAdvice(g, w), threads)
}

// semaphoresNA says when this server prints no wait array at all.
func semaphoresNA(w *window) string {
	if !isMariaDB(w.snap) {
		return ""
	}
	if ok, known := versionAtLeast(w.snap, 10, 6); known && ok {
		return "MariaDB 10.6+ prints an empty SEMAPHORES section (no wait array to read)"
	}
	return ""
}

func longWaits(all []snapshot.InnoDBSemaphoreWait, min float64) []snapshot.InnoDBSemaphoreWait {
	var out []snapshot.InnoDBSemaphoreWait
	for _, x := range all {
		if x.Seconds >= min {
			out = append(out, x)
		}
	}
	return out
}

// groupWaits groups by site and latch, most waiters first, then longest.
func groupWaits(ws []snapshot.InnoDBSemaphoreWait) []*latchGroup {
	by := map[string]*latchGroup{}
	var order []*latchGroup
	for _, x := range ws {
		key := x.Site() + "|" + x.Kind + "|" + x.Latch
		g := by[key]
		if g == nil {
			g = &latchGroup{site: x.Site(), kind: x.Kind, latch: x.Latch, holders: map[string]string{}}
			by[key] = g
			order = append(order, g)
		}
		g.n++
		g.longest = max(g.longest, x.Seconds)
		if x.Holder != "" {
			g.holders[x.Holder] = x.HolderMode
		}
	}
	sortGroups(order)
	return order
}

func sortGroups(gs []*latchGroup) {
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && groupBefore(gs[j], gs[j-1]); j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}

func groupBefore(a, b *latchGroup) bool {
	if a.n != b.n {
		return a.n > b.n
	}
	return a.longest > b.longest
}

func latchLabel(g *latchGroup) string {
	l := g.kind
	if g.latch != "" {
		l += " " + g.latch
	}
	if h := latchHint(g.site + " " + g.latch); h != "" {
		l += " (" + h + ")"
	}
	return strings.TrimSpace(l)
}

func latchHint(s string) string {
	// The latch's creation site says more than the waiting site, so look there first.
	for _, part := range []string{afterSpace(s), s} {
		for prefix, hint := range latchHints {
			if strings.Contains(part, prefix) {
				return hint
			}
		}
	}
	return ""
}

func afterSpace(s string) string {
	_, rest, _ := strings.Cut(s, " ")
	return rest
}

func semaphoreEvidence(w *window, in *snapshot.InnoDBStatus, groups []*latchGroup,
	long []snapshot.InnoDBSemaphoreWait) ([]string, []int64) {
	m := in.Semaphores
	ev := []string{fmt.Sprintf("%d waits in the SEMAPHORES wait array, %d of them %.0f s or longer; longest %.0f s",
		m.Waits, len(long), w.cfg.SemaphoreWaitWarnSeconds, m.LongestWaitSeconds)}
	byOS := trxByOSThread(in)
	var threads []int64
	for i, g := range groups {
		if i == maxThreadLines {
			ev = append(ev, fmt.Sprintf("… and %d more sites", len(groups)-i))
			break
		}
		ev = append(ev, fmt.Sprintf("%d waiting at %s for %s, longest %.0f s%s", g.n, g.site, latchLabel(g),
			g.longest, holderText(g, byOS)))
	}
	for _, x := range long[:min(len(long), maxThreadLines)] {
		line := fmt.Sprintf("thread %s waits %.0f s at %s", x.Thread, x.Seconds, x.Site())
		if t, ok := byOS[x.Thread]; ok {
			line += fmt.Sprintf(" (connection %d: %s)", t.ThreadID, statement(t.Query))
			threads = append(threads, t.ThreadID)
		}
		ev = append(ev, line)
	}
	ev = appendNonEmpty(ev, fatalThreshold(w, m.LongestWaitSeconds))
	return ev, append(threads, holderThreads(groups, byOS)...)
}

// trxByOSThread maps OS thread handles to the transactions that print them,
// so a waiting or holding thread can be named by its connection.
func trxByOSThread(in *snapshot.InnoDBStatus) map[string]snapshot.InnoDBTrx {
	out := map[string]snapshot.InnoDBTrx{}
	for _, t := range in.Transactions.Trx {
		if t.OSThread != "" && t.ThreadID > 0 {
			out[t.OSThread] = t
		}
	}
	return out
}

func holderText(g *latchGroup, byOS map[string]snapshot.InnoDBTrx) string {
	var parts []string
	for h, mode := range g.holders {
		p := "held by thread " + h
		if mode != "" {
			p += " in mode " + mode
		}
		if t, ok := byOS[h]; ok {
			p += fmt.Sprintf(" = connection %d, trx ACTIVE %d s: %s", t.ThreadID, t.ActiveSeconds, statement(t.Query))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	slices.Sort(parts)
	return "; " + strings.Join(parts, "; ")
}

func holderThreads(groups []*latchGroup, byOS map[string]snapshot.InnoDBTrx) []int64 {
	var out []int64
	for _, g := range groups {
		for h := range g.holders {
			if t, ok := byOS[h]; ok {
				out = append(out, t.ThreadID)
			}
		}
	}
	return out
}

func fatalThreshold(w *window, longest float64) string {
	v, ok := w.snap.VarFloat("innodb_fatal_semaphore_wait_threshold")
	if !ok || v <= 0 {
		return ""
	}
	return fmt.Sprintf("innodb_fatal_semaphore_wait_threshold=%.0f: the server aborts itself if a wait reaches it "+
		"(%.0f s left for the longest)", v, max(v-longest, 0))
}

func semaphoreAdvice(g *latchGroup, w *window) string {
	hint := latchHint(g.site + " " + g.latch)
	s := "Find the thread holding the latch (named above when its transaction is listed) and what it does: " +
		"a huge statement, a DDL or a stalled disk. "
	switch hint {
	case "adaptive hash index":
		s += "Waits on the adaptive hash index: try SET GLOBAL innodb_adaptive_hash_index=OFF (or more " +
			"innodb_adaptive_hash_index_parts). "
	case "index tree (B-tree) latch", "data dictionary / index tree latch":
		s += "Waits on one index tree: concurrent inserts into the same index page (page splits) or a bulk " +
			"statement on the same index; spread or batch the writes. "
	case "redo log":
		s += "Waits on the redo log: check the log disk's latency (see disk_saturation). "
	}
	if v, ok := w.snap.VarFloat("innodb_fatal_semaphore_wait_threshold"); ok && g.longest >= v/2 {
		s += "The server will abort itself at the fatal threshold; be ready for crash recovery. "
	}
	return strings.TrimSpace(s + "If waits recur without a holder, capture the full SEMAPHORES section for a bug report.")
}
