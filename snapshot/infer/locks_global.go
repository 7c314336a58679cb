package infer

import (
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// globalStates are the processlist states of LockGlobal waits, with the
// object the tree names.
var globalStates = map[string]string{
	"waiting for global read lock": "global read lock",
	"waiting for commit lock":      "commit lock",
	"waiting for backup lock":      "backup lock",
	"waiting for table flush":      "table flush",
}

// MDL namespaces of MDLHold.Space, as the lock sources name them.
const (
	SpaceBackup = "backup" // MariaDB 10.4+ "Backup lock", MySQL "BACKUP LOCK"
	SpaceGlobal = "global" // "Global read lock", MySQL GLOBAL
	SpaceCommit = "commit" // "Commit lock", MySQL COMMIT
)

// IsBackupLockStatement reports what a backup runs to take the global lock
// (FLUSH TABLES WITH READ LOCK or … FOR EXPORT, BACKUP STAGE, LOCK INSTANCE
// FOR BACKUP): the one test the lock tree and the rules share.
func IsBackupLockStatement(info string) bool {
	q := strings.ToUpper(strings.Join(strings.Fields(info), " "))
	return strings.HasPrefix(q, "FLUSH TABLES") && (strings.Contains(q, " WITH READ LOCK") || strings.Contains(q, " FOR EXPORT")) ||
		strings.HasPrefix(q, "BACKUP STAGE") || strings.HasPrefix(q, "LOCK INSTANCE FOR BACKUP")
}

// isFlushOrBackup is a backup statement, or a FLUSH waiting for tables to
// close: the request others queue behind.
func isFlushOrBackup(p *snapshot.Process) bool {
	return IsBackupLockStatement(p.Info) || snapshot.StatementVerb(p.Info) == "FLUSH" && snapshot.LowerASCII(p.State) == "waiting for table flush"
}

// blocksOthers reports a granted global-namespace lock held by a backup
// (FTWRL, BACKUP STAGE, LOCK INSTANCE FOR BACKUP): the lock writers,
// commits and DDL wait for. The other modes (MDL_BACKUP_DML, _TRANS_DML,
// _DDL, ..., MySQL's INTENTION_EXCLUSIVE) are held by the work a backup
// waits for.
func blocksOthers(h MDLHold) bool {
	switch h.Space {
	case SpaceBackup:
		m := strings.TrimPrefix(h.Mode, "BACKUP_")
		switch m {
		case "FTWRL1", "FTWRL2", "START", "FLUSH", "WAIT_FLUSH", "WAIT_DDL", "WAIT_COMMIT", "BLOCK_DDL", "SHARED":
			return true
		}
	case SpaceGlobal, SpaceCommit:
		return h.Mode == "SHARED" || h.Mode == "S"
	}
	return false
}

// GlobalWaits builds the edges of the threads waiting for a global, commit
// or backup lock or a table flush, so a backup pile-up has a root to act on:
//   - a backup statement (FTWRL, BACKUP STAGE) in "Waiting for table flush"
//     waits for the statements that started before it (inferred);
//   - a backup statement waiting for the lock itself waits for the holders
//     of the work modes (DML, DDL, commit) in holds, exact; without holds
//     for the writes running (inferred);
//   - anything else waits for the holder of the backup's lock in holds,
//     exact; else for a backup statement queued or running, else for the
//     session idle since just before the oldest waiter began (all inferred);
//     else for a holder not seen.
func GlobalWaits(ps []snapshot.Process, holds []MDLHold) []snapshot.LockWait {
	var ws []*snapshot.Process
	for i := range ps {
		if WaitKind(&ps[i]) == snapshot.LockGlobal {
			ws = append(ws, &ps[i])
		}
	}
	if len(ws) == 0 {
		return nil
	}
	var out []snapshot.LockWait
	oldest := ws[0]
	for _, w := range ws {
		if w.TimeMS > oldest.TimeMS {
			oldest = w
		}
	}
	var backupWaiters []*snapshot.Process
	for _, w := range ws {
		if isFlushOrBackup(w) {
			backupWaiters = append(backupWaiters, w)
		}
	}
	for _, w := range ws {
		object := globalStates[snapshot.LowerASCII(w.State)]
		base := snapshot.LockWait{Waiter: w.ID, Kind: snapshot.LockGlobal, Object: object, WaitS: w.TimeMS / 1000}
		add := func(blocker int64, inferred bool) {
			e := base
			e.Blocker, e.Inferred = blocker, inferred
			out = append(out, e)
		}
		if isFlushOrBackup(w) {
			if object == "table flush" {
				before := startedBefore(ps, w)
				for _, p := range before[:min(len(before), maxWaitingBlockers)] {
					add(p.ID, true)
				}
				if len(before) == 0 {
					add(0, true)
				}
				continue
			}
			if hs := globalHolders(holds, w.ID, false); len(hs) > 0 {
				for _, id := range hs {
					add(id, false)
				}
				continue
			}
			runs := runningWrites(ps, w.ID)
			for _, p := range runs[:min(len(runs), maxWaitingBlockers)] {
				add(p.ID, true)
			}
			if len(runs) == 0 {
				add(0, true)
			}
			continue
		}
		if hs := globalHolders(holds, w.ID, true); len(hs) > 0 {
			for _, id := range hs {
				add(id, false)
			}
			continue
		}
		if b := firstOther(backupWaiters, w.ID); b != nil {
			add(b.ID, true) // queued behind the backup's pending request
			continue
		}
		if h := backupHolderGuess(ps, oldest); h != nil {
			add(h.ID, true)
			continue
		}
		add(0, true)
	}
	return out
}

// globalHolders are the threads other than id holding a granted lock in
// the global namespaces: the backup's modes when backup is set (what a
// write waits for), else the work modes (what a backup waits for).
func globalHolders(holds []MDLHold, id int64, backup bool) []int64 {
	var out []int64
	for _, h := range holds {
		if h.Space == "" || h.Pending || h.Thread == id || h.Thread == 0 || slices.Contains(out, h.Thread) {
			continue
		}
		if blocksOthers(h) == backup {
			out = append(out, h.Thread)
		}
	}
	return out
}

// startedBefore are the statements running since before w began (what a
// FLUSH waits to close its tables for), longest first.
func startedBefore(ps []snapshot.Process, w *snapshot.Process) []*snapshot.Process {
	var out []*snapshot.Process
	for i := range ps {
		p := &ps[i]
		if p.ID == w.ID || p.Info == "" || p.Command == "Sleep" || p.Command == "Daemon" || WaitKind(p) == snapshot.LockGlobal ||
			p.TimeMS <= w.TimeMS {
			continue
		}
		out = append(out, p)
	}
	sortProcsByTime(out)
	return out
}

// runningWrites are the writes running (not waiting for a global lock)
// beside id, longest first: what a backup's lock waits for.
func runningWrites(ps []snapshot.Process, id int64) []*snapshot.Process {
	var out []*snapshot.Process
	for i := range ps {
		p := &ps[i]
		if p.ID == id || p.Info == "" || p.Command == "Sleep" || WaitKind(p) == snapshot.LockGlobal ||
			!writeVerbs[snapshot.StatementVerb(p.Info)] && snapshot.StatementVerb(p.Info) != "COMMIT" {
			continue
		}
		out = append(out, p)
	}
	sortProcsByTime(out)
	return out
}

func firstOther(ps []*snapshot.Process, id int64) *snapshot.Process {
	for _, p := range ps {
		if p.ID != id {
			return p
		}
	}
	return nil
}

// backupHolderGuess names, with no lock list, the session holding a
// backup's lock: one running a backup statement, else the session idle
// since just before the oldest waiter began (the lock came first, then
// the queue).
func backupHolderGuess(ps []snapshot.Process, oldest *snapshot.Process) *snapshot.Process {
	var best *snapshot.Process
	for i := range ps {
		p := &ps[i]
		if WaitKind(p) == snapshot.LockGlobal || p.Command == "Daemon" || p.User == "system user" {
			continue
		}
		if IsBackupLockStatement(p.Info) {
			return p
		}
		if p.Command == "Sleep" && p.TimeMS >= oldest.TimeMS && (best == nil || p.TimeMS < best.TimeMS) {
			best = p
		}
	}
	return best
}
