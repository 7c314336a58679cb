package analyzers

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Table-level locks (MyISAM/Aria/MEMORY, LOCK TABLES) serialise readers behind
// writers (LOCK-02): threads queue in "Waiting for table level lock" ("Locked"
// on 5.1), and Table_locks_waited grows against Table_locks_immediate.
var tableLockStates = []string{"Waiting for table level lock", "Locked"}

// IDTableLockContention names the findings of table_lock_contention: a
// contract (the README's findings table), stable, never reused.
const IDTableLockContention = "table_lock_contention"

// TableLockConfig holds table_lock_contention's thresholds, each with its source
// and the trap it avoids.
type TableLockConfig struct {
	// TableLocksImmediateWarn: immediate share % below this (LOCK-02, MT < 95).
	// Trap: MT's since-start-up ratio; judged per interval instead.
	TableLocksImmediateWarn float64

	// TableLockWaitSamplesMin and TableLockWaitShareMin: threads seen waiting
	// for a table-level lock in at least TableLockWaitSamplesMin of the last
	// SightingWindow samples, making at least TableLockWaitShareMin % of the
	// working-thread sightings, raise it although no three samples in a row
	// caught the queue. The same bars as the query cache convoy's
	// (QCWaitSightingsMin, QCWaitShareMin: both locks queue readers behind
	// short writes). Measured on the seed incident (MariaDB 10.11, MyISAM,
	// 600k rows, 3 clients looping a 50-ms full-scan UPDATE, 16 key readers):
	// 16 readers wait in one sample of three, 30-40 % of sightings. Trap:
	// one sample that caught a reader behind one write (3 samples, not 3
	// sightings), and a share over a handful of working threads.
	TableLockWaitSamplesMin int
	TableLockWaitShareMin   float64

	// TableLocksMinPerSec: lock requests per second below which the share is
	// noise (§1.4, UNKNOWN).
	// Trap: a near-zero denominator; the monitor's own SHOW statements take a
	// few table locks each tick.
	TableLocksMinPerSec float64
}

func (c *TableLockConfig) defaults() {
	*c = TableLockConfig{
		TableLocksImmediateWarn: 95,
		TableLockWaitSamplesMin: 3,
		TableLockWaitShareMin:   15,
		TableLocksMinPerSec:     10,
	}
}

// tableLockContentionRule is table_lock_contention in the rules table
// (rule.go); it keeps Config.DefaultPersistence.
var tableLockContentionRule = rule{id: IDTableLockContention, check: checkTableLockContention, held: true}

func checkTableLockContention(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorProcesslist); r != "" && len(w.snap.Status) == 0 {
		return notApplicable(r)
	}
	waiters := w.processes().inStates(tableLockStates...)
	share, rated := tableLockImmediateShare(w, c)
	lowShare := rated && share < c.TableLocksImmediateWarn
	seen := tableLockSightingsOver(w, c.SightingWindow)
	recurring := seen.recurring(c)
	if len(waiters) == 0 && !lowShare && !recurring {
		return quiet()
	}
	title := fmt.Sprintf("%d threads wait for table-level locks", len(waiters))
	switch {
	case len(waiters) == 0 && recurring:
		title = fmt.Sprintf("threads keep queueing for table-level locks: waiters seen in %d of the last %d "+
			"samples", seen.framesWith, seen.frames)
	case len(waiters) == 0:
		title = fmt.Sprintf("only %.1f %% of table locks granted at once", share)
	}
	var ev []string
	if len(waiters) > 0 {
		ev = append(ev, fmt.Sprintf("%d threads in %q/%q, oldest %s", len(waiters), tableLockStates[0],
			tableLockStates[1], fmtMS(waiters[0].TimeMS)))
		ev = append(ev, threadLines(waiters)...)
	}
	if recurring {
		ev = append(ev, fmt.Sprintf("over the last %d samples, %d had threads waiting for a table-level lock: "+
			"%d of %d working-thread sightings (%.0f %%)", seen.frames, seen.framesWith, seen.waiting,
			seen.working, seen.share()))
		if len(waiters) == 0 {
			waiters = recentTableLockWaiters(w, c.SightingWindow)
			ev = append(ev, "last seen waiting:")
			ev = append(ev, threadLines(waiters)...)
		}
	}
	if rated {
		ev = append(ev, fmt.Sprintf("%.1f %% of table locks immediate this interval (warn below %.0f %%)", share,
			c.TableLocksImmediateWarn))
	}
	ev = append(ev, w.counterLines("Table_locks_waited", "Table_locks_immediate")...)
	holders := excludeStates(w.processes().running(longStatementMS, "UPDATE", "DELETE", "INSERT", "REPLACE", "SELECT",
		"ALTER", "LOCK"), tableLockStates...)
	for _, l := range threadLines(holders[:min(len(holders), maxContextLines)]) {
		ev = append(ev, "running: "+l)
	}
	return withRootBlockers(w, raise(snapshot.Warning, title, ev,
		"Find the long statement holding the table (listed as running) and speed it up with an index; "+
			"convert hot MyISAM/Aria tables to InnoDB, which locks rows, not tables.",
		append(ids(waiters, maxThreadIDs), ids(holders, maxContextLines)...)), snapshot.LockTable)
}

// tableLockImmediateShare is Δimmediate / Δ(immediate + waited) in percent,
// when enough locks were taken this interval to judge.
func tableLockImmediateShare(w *window, c *Config) (float64, bool) {
	if w.warmingUp(c) != "" {
		return 0, false
	}
	imm, ok1 := w.rate("Table_locks_immediate")
	waited, ok2 := w.rate("Table_locks_waited")
	total := imm + waited
	if !ok1 || !ok2 || total < c.TableLocksMinPerSec {
		return 0, false
	}
	return 100 * imm / total, true
}

// inTableLockState reports a thread queued for a table-level lock.
func inTableLockState(state string) bool {
	for _, st := range tableLockStates {
		if strings.EqualFold(state, st) {
			return true
		}
	}
	return false
}

// tableLockSightings counts table-lock waits over recent samples. A write
// that holds a MyISAM table for 50 ms at a time queues every reader behind
// it, but a 1-s sample catches the queue only while the write runs: in one
// sample of three (the seed incident, measured), never three in a row.
type tableLockSightings struct {
	frames, framesWith int // samples looked at, and those with a waiter
	waiting, working   int // thread sightings waiting, and all working ones
}

func tableLockSightingsOver(w *window, n int) tableLockSightings {
	var s tableLockSightings
	for _, f := range w.recent(max(n, 1)) {
		c := w.countsOf(f)
		s.frames++
		s.waiting += c.tlWaiting
		s.working += c.working
		if c.tlWaiting > 0 {
			s.framesWith++
		}
	}
	return s
}

func (s tableLockSightings) share() float64 {
	if s.working == 0 {
		return 0
	}
	return 100 * float64(s.waiting) / float64(s.working)
}

func (s tableLockSightings) recurring(c *Config) bool {
	return s.framesWith >= c.TableLockWaitSamplesMin && s.share() >= c.TableLockWaitShareMin
}

// recentTableLockWaiters returns the threads last seen waiting for a
// table-level lock in recent frames, newest sighting first, one per thread.
func recentTableLockWaiters(w *window, n int) []*snapshot.Process {
	seen := map[int64]bool{}
	var out []*snapshot.Process
	frames := w.recent(max(n, 1))
	for i := len(frames) - 1; i >= 0; i-- {
		if w.countsOf(frames[i]).tlWaiting == 0 {
			continue
		}
		list := frames[i].Snapshot.Processlist
		for k := range list {
			p := &list[k]
			if isWorking(p) && inTableLockState(p.State) && !seen[p.ID] {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
	}
	return out
}
