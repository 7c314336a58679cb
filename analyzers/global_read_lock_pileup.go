package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// A backup's global read lock holds every write (LOCK-03). Two shapes:
//
//   - MySQL, and MariaDB before 10.4: FLUSH TABLES WITH READ LOCK itself
//     waits in "Waiting for table flush" until a long SELECT closes its
//     tables, and every write queues behind the FTWRL in "Waiting for global
//     read lock" (or "Waiting for commit lock"). The long SELECT is the root:
//     killing it lets the FTWRL through and the backup proceed.
//   - MariaDB 10.4+: FTWRL and BACKUP STAGE take the backup lock at once,
//     without waiting for running SELECTs; writes (and COMMITs, DDL) queue in
//     "Waiting for backup lock" behind the session that holds it, which is
//     usually idle (the backup tool copying files). The holder is the root.
const (
	grlWaitState    = "Waiting for global read lock"
	commitLockState = "Waiting for commit lock"
	backupLockState = "Waiting for backup lock"
	tableFlushState = "Waiting for table flush"
)

var grlStates = []string{grlWaitState, commitLockState, backupLockState, tableFlushState}

// IDGlobalReadLockPileup names the findings of global_read_lock_pileup: a
// contract (the README's findings table), stable, never reused.
const IDGlobalReadLockPileup = "global_read_lock_pileup"

// GlobalReadLockConfig holds global_read_lock_pileup's thresholds, each with its
// source and the trap it avoids.
type GlobalReadLockConfig struct {
	// GlobalReadLockWaitersWarn: threads queued behind a global read lock or
	// backup lock ("Waiting for global read lock", "Waiting for backup lock",
	// "Waiting for commit lock", "Waiting for table flush"). LOCK-03 gives no
	// number: any waiter for the PTS persistence window (5 x 1 s) is the
	// policy. Trap avoided: FLUSH TABLES WITH READ LOCK held for a moment by a
	// backup with nothing queued behind it raises nothing, and a lone waiter
	// for a second is gone before the window ends.
	GlobalReadLockWaitersWarn int

	// GlobalReadLockCritSeconds: the oldest queued write has waited this long
	// (the server's own innodb_lock_wait_timeout default, 50 s, after which
	// applications typically time out themselves; FTS-01's rationale). The
	// server's lock_wait_timeout (1 year by default) never ends these waits.
	// Trap: none of its own; it only raises the severity.
	GlobalReadLockCritSeconds float64
}

func (c *GlobalReadLockConfig) defaults() {
	*c = GlobalReadLockConfig{
		GlobalReadLockWaitersWarn: 1,
		GlobalReadLockCritSeconds: 50,
	}
}

// globalReadLockPileupRule is global_read_lock_pileup in the rules table
// (rule.go). A backup's lock pile-up is a state pile-up (PTS 5 x 1 s,
// LOCK-03).
var globalReadLockPileupRule = rule{id: IDGlobalReadLockPileup, check: checkGlobalReadLockPileup, persist: persistFor(5*time.Second, 5*time.Second)}

func checkGlobalReadLockPileup(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorProcesslist); r != "" {
		return notApplicable(r)
	}
	pv := w.processes()
	flushers := flushStatements(pv.inStates(tableFlushState))
	// Everything else in these states queues behind the lock or the flush.
	queued := excludeIDs(pv.inStates(grlStates...), flushers)
	if len(queued)+len(flushers) < max(c.GlobalReadLockWaitersWarn, 1) {
		return quiet()
	}
	// The lock tree's roots (the holder read from the lock list where there
	// is one) come first, and in findings[].root_blockers.
	if len(flushers) > 0 {
		return withRootBlockers(w, flushBehindQuery(w, c, flushers, queued), snapshot.LockGlobal)
	}
	return withRootBlockers(w, writesBehindHolder(w, c, queued), snapshot.LockGlobal)
}

// flushStatements are the threads running a FLUSH in "Waiting for table
// flush" (other statements in that state wait for a flush, they are not one).
func flushStatements(ps []*snapshot.Process) []*snapshot.Process {
	var out []*snapshot.Process
	for _, p := range ps {
		if snapshot.StatementVerb(p.Info) == "FLUSH" {
			out = append(out, p)
		}
	}
	return out
}

// flushBehindQuery is the MySQL / pre-10.4 shape: the FLUSH waits for the
// oldest statement that started before it.
func flushBehindQuery(w *window, c *Config, flushers, queued []*snapshot.Process) verdict {
	flush := flushers[0]
	root := oldestBefore(w.processes(), flush)
	ev := []string{grlCounts(w.processes())}
	title := fmt.Sprintf("%s waits %s for tables to close", statement(flush.Info), fmtMS(flush.TimeMS))
	var threads []int64
	if root != nil {
		title = fmt.Sprintf("%s waits %s behind a %s query (thread %d); %d statements queue behind it",
			statement(flush.Info), fmtMS(flush.TimeMS), fmtMS(root.TimeMS), root.ID, len(queued))
		ev = append(ev, "root: "+threadLine(root)+" — the FLUSH waits for it to finish")
		threads = append(threads, root.ID)
	}
	ev = append(ev, "backup session: "+threadLine(flush))
	ev = append(ev, waiterLines(queued)...)
	threads = append(append(threads, flush.ID), ids(queued, maxThreadIDs)...)
	return raise(grlSeverity(c, append(queued, flush)), title, ev, flushAdvice(root, flush), threads)
}

// oldestBefore is the longest-running statement that started before p and is
// not itself queued on the lock: what a FLUSH waits for.
func oldestBefore(pv *procView, p *snapshot.Process) *snapshot.Process {
	for _, q := range pv.running(0, "SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "ALTER", "CALL") {
		if q.ID == p.ID || q.TimeMS <= p.TimeMS || isGRLState(q.State) {
			continue
		}
		return q
	}
	return nil
}

// writesBehindHolder is the MariaDB 10.4+ shape (and a held FTWRL on MySQL):
// the lock is taken, its holder is not waiting for anything.
func writesBehindHolder(w *window, c *Config, queued []*snapshot.Process) verdict {
	holder, how := grlHolder(w, queued)
	ev := []string{grlCounts(w.processes())}
	title := fmt.Sprintf("%d statements wait for a global read / backup lock, oldest %s", len(queued),
		fmtMS(queued[0].TimeMS))
	var threads []int64
	if holder != nil {
		title += fmt.Sprintf("; held by thread %d %s", holder.ID, userHost(holder))
		ev = append(ev, how+": "+threadLine(holder))
		threads = append(threads, holder.ID)
	} else {
		ev = append(ev, "the holder is not visible: a session that ran FLUSH TABLES WITH READ LOCK or BACKUP "+
			"STAGE and is now busy with something else")
	}
	if ok, known := versionAtLeast(w.snap, 10, 4); isMariaDB(w.snap) && known && ok {
		ev = append(ev, "MariaDB 10.4+: FLUSH TABLES WITH READ LOCK and BACKUP STAGE do not wait for running "+
			"SELECTs; the session holding the lock is the root")
	}
	ev = append(ev, waiterLines(queued)...)
	threads = append(threads, ids(queued, maxThreadIDs)...)
	return raise(grlSeverity(c, queued), title, ev, holderAdvice(holder), threads)
}

// grlHolder names the session holding the lock: one seen running a backup
// statement in the recent frames and still connected; else a session
// running one now; else the idle session whose idleness began just before
// the oldest waiter started (the lock came first, then the queue).
func grlHolder(w *window, queued []*snapshot.Process) (*snapshot.Process, string) {
	pv := w.processes()
	if p := seenRunningBackup(w, pv); p != nil {
		return p, "holder (seen running " + statement(p.Info) + ")"
	}
	oldest := queued[0].TimeMS
	var best *snapshot.Process
	for i := range pv.all {
		p := &pv.all[i]
		if isGRLState(p.State) || p.Command == "Daemon" || p.User == "system user" {
			continue
		}
		if infer.IsBackupLockStatement(p.Info) {
			return p, "holder (running " + statement(p.Info) + ")"
		}
		if p.Command == "Sleep" && p.TimeMS >= oldest && (best == nil || p.TimeMS < best.TimeMS) {
			best = p
		}
	}
	if best != nil {
		return best, "probable holder (idle since just before the oldest waiter)"
	}
	return nil, ""
}

// seenRunningBackup looks back over the detailed frames for a backup
// statement whose session is still connected now.
func seenRunningBackup(w *window, pv *procView) *snapshot.Process {
	for i := len(w.frames) - 1; i >= 0; i-- {
		f := w.frames[i]
		if f == nil || f.Snapshot == nil || f.Snapshot.Processlist == nil {
			break // thinned frames keep no processlist
		}
		for _, p := range f.Snapshot.Processlist {
			if !infer.IsBackupLockStatement(p.Info) {
				continue
			}
			if now := pv.byID(p.ID); now != nil && !isGRLState(now.State) {
				seen := *now
				seen.Info = p.Info
				if now.Info != "" {
					seen.Info = now.Info
				}
				return &seen
			}
		}
	}
	return nil
}

func isGRLState(s string) bool {
	for _, g := range grlStates {
		if strings.EqualFold(s, g) {
			return true
		}
	}
	return false
}

func excludeIDs(ps, drop []*snapshot.Process) []*snapshot.Process {
	out := ps[:0:0]
	for _, p := range ps {
		keep := true
		for _, d := range drop {
			keep = keep && d.ID != p.ID
		}
		if keep {
			out = append(out, p)
		}
	}
	return out
}

func grlCounts(pv *procView) string {
	var parts []string
	for _, s := range grlStates {
		if n := len(pv.inStates(s)); n > 0 {
			parts = append(parts, fmt.Sprintf("%d in %q", n, s))
		}
	}
	return "threads: " + strings.Join(parts, ", ")
}

func waiterLines(queued []*snapshot.Process) []string {
	var out []string
	for _, l := range threadLines(queued) {
		out = append(out, "queued: "+l)
	}
	return out
}

func grlSeverity(c *Config, waiting []*snapshot.Process) snapshot.Severity {
	for _, p := range waiting {
		if float64(p.TimeMS)/1000 >= c.GlobalReadLockCritSeconds {
			return snapshot.Critical
		}
	}
	return snapshot.Warning
}

func flushAdvice(root, flush *snapshot.Process) string {
	s := fmt.Sprintf("The backup's FLUSH (thread %d) cannot finish until the long query ends, and every write "+
		"waits behind the FLUSH. ", flush.ID)
	if root != nil {
		s += fmt.Sprintf("KILL QUERY %d (the long query, the root) lets the FLUSH and the backup through; "+
			"KILL %d instead cancels this backup run and frees the writes. ", root.ID, flush.ID)
	}
	return s + "Schedule backups away from long reports, or use a backup that takes no global read lock " +
		"(--single-transaction without --master-data/--source-data on InnoDB-only data, LOCK INSTANCE " +
		"FOR BACKUP on MySQL 8.0)."
}

func holderAdvice(holder *snapshot.Process) string {
	s := "A backup holds the global read / backup lock and writes wait until it releases it (UNLOCK TABLES " +
		"or BACKUP STAGE END). "
	if holder != nil {
		s += fmt.Sprintf("If the backup can be retried, KILL %d frees the writes at once. ", holder.ID)
	}
	return s + "Keep the locked phase short: mariabackup holds BLOCK_COMMIT only while it copies non-InnoDB " +
		"tables, so convert MyISAM/Aria tables to InnoDB; take logical dumps with --single-transaction " +
		"and no --master-data."
}
