package parse

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// InnoDB table locks in the status text: a waiter's lock is printed as
// "TABLE LOCK table `app`.`dst` trx id 1555 lock mode AUTO-INC waiting"
// (AUTO-INC under innodb_autoinc_lock_mode=0, or the X/S lock of LOCK
// TABLES on InnoDB). Such a wait is a table-lock edge, as the lock tables'
// lock_type TABLE is, so the lock tree and innodb_table_lock_queue see it
// where only the status can be read (a lock table refused, a queue too long
// for them, an imported capture). Its holder is found where the status says
// it:
//   - exact: a transaction whose own lock list (printed with
//     innodb_status_output_locks=ON) holds a lock on that table in a mode
//     the waiter's conflicts with;
//   - inferred (marked): else the one active transaction, not waiting, whose
//     statement names the table (for AUTO-INC, one that inserts into it),
//     or else the one holding tables locked ("mysql tables in use N, locked
//     N": an idle LOCK TABLES session);
//   - not seen (Blocker 0): else.

// heldTableLock is one table lock a transaction's lock list shows granted.
type heldTableLock struct{ table, mode string }

// tableLockLine reads a TABLE LOCK line: the table, the mode, and whether
// the lock is waited for.
func tableLockLine(line string) (table, mode string, waiting bool, ok bool) {
	if !strings.HasPrefix(line, "TABLE LOCK ") {
		return "", "", false, false
	}
	_, m, found := strings.Cut(line, " lock mode ")
	if !found {
		return "", "", false, false
	}
	m = strings.TrimSpace(m)
	m, waiting = strings.CutSuffix(m, " waiting")
	return waitedObject(line), strings.TrimSpace(m), waiting, true
}

// tableLockCompatible lists, for each mode InnoDB prints, the modes it is
// compatible with (InnoDB's table lock compatibility matrix).
var tableLockCompatible = map[string][]string{
	"IS":       {"IS", "IX", "S", "AUTO-INC"},
	"IX":       {"IS", "IX", "AUTO-INC"},
	"S":        {"IS", "S"},
	"X":        nil,
	"AUTO-INC": {"IS", "IX"},
}

// tableLocksConflict reports whether a lock in mode a waits for one in mode
// b; a mode the matrix does not know is taken to conflict.
func tableLocksConflict(a, b string) bool {
	ok, known := tableLockCompatible[a]
	if !known {
		return true
	}
	for _, m := range ok {
		if m == b {
			return false
		}
	}
	return true
}

// tableLockEdges are the edges of waiter t, which waits for a table lock,
// among the status's transactions trx.
func tableLockEdges(t *innoDBTrxWait, trx []innoDBTrxWait) []snapshot.LockWait {
	e := snapshot.LockWait{Waiter: t.ThreadID, Kind: snapshot.LockTable, Object: t.obj, Mode: t.mode, WaitS: t.LockWaitSeconds}
	var granted, queued []*innoDBTrxWait
	for i := range trx {
		h := &trx[i]
		if h == t || !h.holdsConflicting(t.obj, t.mode) {
			continue
		}
		if h.LockWait {
			queued = append(queued, h)
		} else {
			granted = append(granted, h)
		}
	}
	if len(granted) == 0 {
		granted = queued
	}
	var out []snapshot.LockWait
	for _, h := range granted {
		x := e
		x.Blocker, x.BlockerTrx = h.holder()
		out = append(out, x)
	}
	if len(out) > 0 {
		return out
	}
	e.Inferred = true
	if h := tableLockSuspect(t, trx); h != nil {
		e.Blocker, e.BlockerTrx = h.holder()
	}
	return []snapshot.LockWait{e}
}

// holdsConflicting reports a granted lock on table that a request in mode
// must wait for.
func (t *innoDBTrxWait) holdsConflicting(table, mode string) bool {
	for _, l := range t.held {
		if strings.EqualFold(l.table, table) && tableLocksConflict(mode, l.mode) {
			return true
		}
	}
	return false
}

// tableLockSuspect is the one transaction that, by what the status prints
// without its lock list, holds the table waiter t waits for; nil when none
// or several may.
func tableLockSuspect(t *innoDBTrxWait, trx []innoDBTrxWait) *innoDBTrxWait {
	var naming, locking []*innoDBTrxWait
	for i := range trx {
		h := &trx[i]
		if h == t || h.LockWait || !strings.HasPrefix(h.State, "ACTIVE") {
			continue
		}
		if h.TablesLocked > 0 {
			locking = append(locking, h)
		}
		// AUTO-INC is taken by a statement inserting into the table; a
		// reader of it (the copy's source) holds no such lock.
		if namesTable(h.Query, t.obj) && (t.mode != "AUTO-INC" || inserts(h.Query)) {
			naming = append(naming, h)
		}
	}
	switch {
	case len(naming) == 1:
		return naming[0]
	case len(naming) == 0 && len(locking) == 1:
		return locking[0]
	}
	return nil
}

// namesTable reports a statement naming table ("db.name"), qualified or
// not.
func namesTable(q, table string) bool {
	table = strings.ToLower(table)
	for _, n := range snapshot.StatementTables(q, "") {
		if n == table || !strings.Contains(n, ".") && strings.HasSuffix(table, "."+n) {
			return true
		}
	}
	return false
}

// inserts reports a statement that takes AUTO-INC values.
func inserts(q string) bool {
	switch snapshot.StatementVerb(q) {
	case "INSERT", "REPLACE", "LOAD":
		return true
	}
	return false
}
