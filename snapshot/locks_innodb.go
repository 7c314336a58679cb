package snapshot

import "strings"

// InnoDBLockWaits reads every transaction of the raw InnoDB status's
// TRANSACTIONS section (InnoDBTransactions keeps at most 64): the lock
// source for a queue too long for the lock tables, whose cost on MariaDB
// grows with the square of the queue. Waiters are named with the record they
// wait for; InnoDB does not print who holds it, so each waits for the oldest
// active transaction that holds row locks and does not wait (inferred).
// truncated says the server cut the list short.
func InnoDBLockWaits(raw string) (waits []LockWait, threads []LockThread, truncated bool) {
	in := false
	var cur InnoDBTrx
	var obj string
	have, nextIsLock := false, false
	var trx []InnoDBTrx
	var objs []string
	flush := func() {
		if have && cur.ThreadID != 0 && strings.HasPrefix(cur.State, "ACTIVE") {
			trx = append(trx, cur)
			objs = append(objs, obj)
		}
		have, obj = false, ""
	}
	for line := range lines(raw) {
		switch {
		case line == "TRANSACTIONS":
			in = true
		case !in:
		case innoDBSectionEnd[line]:
			in = false
		case strings.HasPrefix(line, "---TRANSACTION "):
			flush()
			cur, have = parseTrxHeader(strings.TrimPrefix(line, "---TRANSACTION ")), true
		case strings.HasPrefix(line, "... truncated..."):
			truncated = true
		case nextIsLock:
			obj = waitedObject(line)
			nextIsLock = false
		case have:
			nextIsLock = strings.HasPrefix(line, "------- TRX HAS BEEN WAITING ")
			cur.parseDetail(line)
		}
	}
	flush()
	var holder *InnoDBTrx
	for i := range trx {
		t := &trx[i]
		threads = append(threads, LockThread{ID: t.ThreadID, TrxAgeS: t.ActiveSeconds, TrxState: t.State,
			RowsLocked: t.RowLocks})
		if !t.LockWait && t.RowLocks > 0 && (holder == nil || t.ActiveSeconds > holder.ActiveSeconds) {
			holder = t
		}
	}
	for i, t := range trx {
		if !t.LockWait {
			continue
		}
		e := LockWait{Waiter: t.ThreadID, Kind: LockRow, Object: objs[i], WaitS: t.LockWaitSeconds, Inferred: true}
		if holder != nil {
			e.Blocker = holder.ThreadID
		}
		waits = append(waits, e)
	}
	return waits, threads, truncated
}

// innoDBSectionEnd are the titles that may follow TRANSACTIONS.
var innoDBSectionEnd = map[string]bool{
	"FILE I/O": true, "INSERT BUFFER AND ADAPTIVE HASH INDEX": true, "LOG": true, "BUFFER POOL AND MEMORY": true,
	"ROW OPERATIONS": true, "END OF INNODB MONITOR OUTPUT": true,
}

// waitedObject reads "RECORD LOCKS space id 5 page no 3 n bits 72 index
// PRIMARY of table `shop`.`acct` trx id 1555 lock_mode X ... waiting" or
// "TABLE LOCK table `shop`.`acct` trx id 1555 lock mode IX waiting" as
// "shop.acct PRIMARY".
func waitedObject(line string) string {
	table := ""
	if _, rest, ok := strings.Cut(line, "table `"); ok {
		table, _, _ = strings.Cut("`"+rest, " trx id")
		table = strings.ReplaceAll(table, "`", "")
	}
	if _, rest, ok := strings.Cut(line, " index "); ok {
		if idx, _, ok := strings.Cut(rest, " of table "); ok {
			return table + " " + strings.Trim(idx, "`")
		}
	}
	return table
}
