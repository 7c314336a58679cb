package analyzers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// InnoDB table locks (LOCK-02 on the InnoDB side): the table's AUTO-INC lock,
// which innodb_autoinc_lock_mode=0 holds until an INSERT … SELECT or LOAD
// DATA ends, and LOCK TABLES on InnoDB. Their waiters show in the lock tables
// (lock_type TABLE) and in the InnoDB status ("TABLE LOCK … waiting"), never in
// Innodb_row_lock_current_waits nor in a processlist lock state (the queued
// inserters read "Update"), so neither row_lock_waits nor
// table_lock_contention sees them. The rule reads the lock collector's
// InnoDB table-lock edges: those a lock table gave, and those the InnoDB
// status gave (its holder exact, or guessed and marked). Both carry the lock
// mode their source printed; edges inferred from the processlist carry none
// and are MyISAM/Aria queues, table_lock_contention's.

// IDInnoDBTableLockQueue names the findings of innodb_table_lock_queue: a
// contract (the README's findings table), stable, never reused.
const IDInnoDBTableLockQueue = "innodb_table_lock_queue"

// InnoDBTableLockConfig holds innodb_table_lock_queue's thresholds. Embedded
// in Config.
type InnoDBTableLockConfig struct {
	// InnoDBTableLockQueueMin: waiters behind one table lock that make a
	// queue (UNKNOWN; the incident that asked for the rule had 12 single-row
	// inserters behind two copies). Trap: under mode 0 every INSERT takes the
	// AUTO-INC lock for a moment, so one or two brief waiters are the lock
	// working, not a queue.
	InnoDBTableLockQueueMin int
	// InnoDBTableLockWaitWarn: a single waiter waiting this long is named
	// too (innodb_lock_wait_timeout's default is 50 s; a LOCK TABLES held by
	// an idle session queues writers one at a time). Trap: a wait age is read
	// from INNODB_TRX in whole seconds.
	InnoDBTableLockWaitWarn time.Duration
}

func (c *InnoDBTableLockConfig) defaults() {
	*c = InnoDBTableLockConfig{InnoDBTableLockQueueMin: 3, InnoDBTableLockWaitWarn: 5 * time.Second}
}

// innoDBTableLockQueueRule is innodb_table_lock_queue in the rules table
// (rule.go). A 3-s onset: a copy under mode 0 holds the lock for its whole
// run, seconds at least, and the queue is the outage; a one-second pile-up is
// the lock working.
var innoDBTableLockQueueRule = rule{id: IDInnoDBTableLockQueue, check: checkInnoDBTableLockQueue,
	persist: persistFor(3*time.Second, 5*time.Second)}

// tableLockQueue is the waits for one table's lock.
type tableLockQueue struct {
	object  string
	modes   []string
	holders []int64
	waiters []int64
	oldestS int64
	// guessed: a holder was inferred (the InnoDB status prints a table
	// lock's holder only with innodb_status_output_locks=ON).
	guessed bool
}

func checkInnoDBTableLockQueue(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorLocks); r != "" {
		return notApplicable(r)
	}
	q := worstTableLockQueue(w.snap.Locks)
	if q == nil || len(q.waiters) < c.InnoDBTableLockQueueMin &&
		time.Duration(q.oldestS)*time.Second < c.InnoDBTableLockWaitWarn {
		return quiet()
	}
	autoInc := slices.ContainsFunc(q.modes, isAutoIncMode)
	lock := "a table lock on " + q.object
	if autoInc {
		lock = "the AUTO-INC lock of " + q.object
	}
	title := fmt.Sprintf("%d transactions queue for %s", len(q.waiters), lock)
	if h := w.processes().byID(firstOr(q.holders)); h != nil {
		title += fmt.Sprintf(" behind thread %d (%s)", h.ID, clip(statement(h.Info), 60))
	}
	ev := []string{fmt.Sprintf("%d waiting (oldest %d s) for %s, mode %s", len(q.waiters), q.oldestS, q.object,
		strings.Join(q.modes, "/"))}
	holder := "holder: "
	if q.guessed {
		holder = "holder (guessed: the InnoDB status prints who holds a table lock only with " +
			"innodb_status_output_locks=ON; this is the one transaction using the table that does not wait): "
	}
	for _, id := range q.holders {
		if p := w.processes().byID(id); p != nil {
			ev = append(ev, holder+threadLine(p))
		} else {
			ev = append(ev, fmt.Sprintf("%sthread %d (not in the processlist)", holder, id))
		}
	}
	for _, id := range q.waiters[:min(len(q.waiters), maxContextLines)] {
		if p := w.processes().byID(id); p != nil {
			ev = append(ev, "waiting: "+threadLine(p))
		}
	}
	if src := w.snap.Locks.Sources[snapshot.LockTable]; src != "" {
		ev = append(ev, "read from "+src)
	}
	advice := "End what holds the table lock: a LOCK TABLES session's UNLOCK TABLES (or its commit), or kill the " +
		"holder named above; writers queue behind it until it ends."
	if autoInc {
		ev = appendNonEmpty(ev, autoIncVariables(w))
		advice = autoIncAdvice
	}
	return withRootBlockers(w, raise(snapshot.Warning, title, ev, advice,
		append(slices.Clone(q.holders), q.waiters[:min(len(q.waiters), maxThreadIDs)]...)), snapshot.LockTable)
}

// autoIncAdvice says what innodb_autoinc_lock_mode changes, and what that
// means for replication.
const autoIncAdvice = "innodb_autoinc_lock_mode=0 (traditional) holds a table's AUTO-INC lock until each " +
	"INSERT … SELECT or LOAD DATA ends, so every insert into the table waits for the copy. Mode 1 (consecutive) " +
	"holds it only for bulk inserts and lets single-row inserts through, and stays safe for statement-based " +
	"replication; mode 2 (interleaved) never holds it across a statement, but bulk inserts then get " +
	"interleaved ids, which replicas apply differently unless binlog_format is ROW (or MIXED). The variable is " +
	"read-only: set it in the configuration and restart. Until then, copy in small batches, or give the copy " +
	"its ids explicitly."

// autoIncVariables is the line with the settings the advice turns on.
func autoIncVariables(w *window) string {
	var parts []string
	for _, name := range []string{"innodb_autoinc_lock_mode", "binlog_format", "log_bin"} {
		if v, ok := w.variable(name); ok {
			parts = append(parts, name+"="+v)
		}
	}
	return strings.Join(parts, ", ")
}

func isAutoIncMode(m string) bool {
	m = strings.ToUpper(m)
	return strings.Contains(m, "AUTO_INC") || strings.Contains(m, "AUTO-INC")
}

func firstOr(ids []int64) int64 {
	if len(ids) == 0 {
		return 0
	}
	return ids[0]
}

// worstTableLockQueue groups the lock tables' table-lock edges by table and
// returns the one with the most waiters.
func worstTableLockQueue(l *snapshot.Locks) *tableLockQueue {
	if l == nil {
		return nil
	}
	byObj := map[string]*tableLockQueue{}
	var order []string
	for _, e := range l.Waits {
		if !innoDBTableEdge(e) {
			continue
		}
		q := byObj[e.Object]
		if q == nil {
			q = &tableLockQueue{object: e.Object}
			byObj[e.Object] = q
			order = append(order, e.Object)
		}
		if e.Mode != "" && !slices.Contains(q.modes, e.Mode) {
			q.modes = append(q.modes, e.Mode)
		}
		if e.Blocker != 0 && !slices.Contains(q.holders, e.Blocker) {
			q.holders = append(q.holders, e.Blocker)
			q.guessed = q.guessed || e.Inferred
		}
		if !slices.Contains(q.waiters, e.Waiter) {
			q.waiters = append(q.waiters, e.Waiter)
		}
		q.oldestS = max(q.oldestS, e.WaitS)
	}
	var worst *tableLockQueue
	for _, o := range order {
		if q := byObj[o]; worst == nil || len(q.waiters) > len(worst.waiters) {
			worst = q
		}
	}
	if worst != nil {
		// A holder that waits itself (the second copy, queued) is not where
		// the queue ends.
		worst.holders = slices.DeleteFunc(worst.holders, func(id int64) bool {
			return slices.Contains(worst.waiters, id) && len(worst.holders) > 1
		})
	}
	return worst
}

// innoDBTableEdge reports an edge of an InnoDB table lock: read from a lock
// table, or from the InnoDB status (which prints the mode even where it
// does not print the holder). The processlist's inferred table-lock edges
// (MyISAM, Aria, MEMORY) carry no mode.
func innoDBTableEdge(e snapshot.LockWait) bool {
	return e.Kind == snapshot.LockTable && (!e.Inferred || e.Mode != "")
}
