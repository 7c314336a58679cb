package snapshot

import (
	"fmt"
	"strconv"
	"strings"
)

// InnoDBLockWaits reads every transaction of the raw InnoDB status's
// TRANSACTIONS section (InnoDBTransactions keeps at most 64): the lock
// source for a queue too long for the lock tables, whose cost on MariaDB
// grows with the square of the queue. InnoDB prints, for each waiter, the
// record it waits for (space, page, heap number and the record's fields),
// not who holds it. Waiters are grouped by record, and each record's holder
// is found where the status says it:
//   - exact: the record's DB_TRX_ID field names an active transaction, which
//     modified the row, has not committed, and so holds it;
//   - inferred (marked): else the one active transaction holding row locks
//     and not waiting that holds no other record (or the only such one);
//   - not seen (Blocker 0, the record kept): else; InnoDBHolderCandidates
//     lists who it may be.
//
// A holder with no thread (an XA PREPARED transaction whose session ended, a
// recovered one) is named by its transaction id (LockWait.BlockerTrx) and
// listed in threads with ID 0. truncated says the server cut the list short.
func InnoDBLockWaits(raw string) (waits []LockWait, threads []LockThread, truncated bool) {
	trx, truncated := innoDBWaitingTrx(raw)
	byID := make(map[string]*innoDBTrxWait, len(trx))
	for i := range trx {
		byID[trx[i].ID] = &trx[i]
		t := &trx[i]
		threads = append(threads, LockThread{ID: t.ThreadID, TrxID: t.ID, TrxAgeS: t.ActiveSeconds, TrxState: t.State,
			RowsLocked: t.RowLocks, RowsModified: t.UndoEntries})
	}
	// Holders named by the records themselves.
	known := map[string]bool{}
	for i := range trx {
		t := &trx[i]
		if h := byID[t.recTrx]; t.LockWait && h != nil && h != t {
			known[h.ID] = true
		}
	}
	// Candidates for the records that do not name theirs.
	var free, all []*innoDBTrxWait
	for i := range trx {
		t := &trx[i]
		if t.LockWait || t.RowLocks == 0 {
			continue
		}
		all = append(all, t)
		if !known[t.ID] {
			free = append(free, t)
		}
	}
	guess := free
	if len(guess) == 0 {
		guess = all
	}
	for i := range trx {
		t := &trx[i]
		if !t.LockWait || t.ThreadID == 0 {
			continue
		}
		e := LockWait{Waiter: t.ThreadID, Kind: LockRow, Object: t.obj, Record: t.rec, WaitS: t.LockWaitSeconds}
		switch h := byID[t.recTrx]; {
		case h != nil && h != t:
			e.Blocker, e.BlockerTrx = h.holder()
		case len(guess) == 1:
			e.Blocker, e.BlockerTrx = guess[0].holder()
			e.Inferred = true
		default:
			e.Inferred = true // not seen: the tree keeps one unseen holder per record
		}
		waits = append(waits, e)
	}
	return waits, threads, truncated
}

// InnoDBHolderCandidates lists, for a note, the threads (or transactions
// with no thread) that may hold a record whose holder the InnoDB status
// does not print: active, holding row locks, not waiting.
func InnoDBHolderCandidates(threads []LockThread, waits []LockWait) []string {
	waiting := map[int64]bool{}
	for _, w := range waits {
		waiting[w.Waiter] = true
	}
	var out []string
	for _, t := range threads {
		if t.RowsLocked == 0 || waiting[t.ID] || strings.Contains(t.TrxState, "LOCK WAIT") {
			continue
		}
		if t.ID != 0 {
			out = append(out, fmt.Sprintf("thread %d", t.ID))
		} else {
			out = append(out, "transaction "+t.TrxID+" (no connection)")
		}
	}
	return out
}

// innoDBTrxWait is one active transaction of the status, with what it
// waits for.
type innoDBTrxWait struct {
	InnoDBTrx
	obj    string // "shop.acct PRIMARY"
	rec    string // "space 5 page 3 heap 2"
	recTrx string // the waited-for record's DB_TRX_ID, decimal
}

// holder is the edge's blocker: the thread, or the transaction with none.
func (t *innoDBTrxWait) holder() (int64, string) {
	if t.ThreadID != 0 {
		return t.ThreadID, ""
	}
	return 0, t.ID
}

// innoDBWaitingTrx reads the active transactions of the TRANSACTIONS
// section, with or without a thread.
func innoDBWaitingTrx(raw string) (trx []innoDBTrxWait, truncated bool) {
	in := false
	var cur innoDBTrxWait
	have := false
	// waitLine counts the lines after "TRX HAS BEEN WAITING": 1 the lock,
	// 2 "Record lock, heap no ...", then the record's fields.
	waitLine := 0
	var fields []recField
	flush := func() {
		if have && strings.HasPrefix(cur.State, "ACTIVE") {
			cur.recTrx = recordTrxID(fields)
			trx = append(trx, cur)
		}
		have, waitLine, fields = false, 0, fields[:0]
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
			cur, have = innoDBTrxWait{InnoDBTrx: parseTrxHeader(strings.TrimPrefix(line, "---TRANSACTION "))}, true
		case strings.HasPrefix(line, "... truncated..."):
			truncated = true
		case !have:
		case waitLine == 1:
			cur.obj = waitedObject(line)
			cur.rec = waitedRecordPage(line)
			waitLine = 2
		case waitLine == 2:
			if heap, ok := intAfter(line, "heap no "); ok && cur.rec != "" && strings.HasPrefix(line, "Record lock") {
				cur.rec += " heap " + strconv.FormatInt(heap, 10)
				waitLine = 3
			} else {
				waitLine = 0
			}
		case waitLine == 3:
			if f, ok := parseRecField(line); ok {
				fields = append(fields, f)
			} else {
				waitLine = 0
			}
		default:
			if strings.HasPrefix(line, "------- TRX HAS BEEN WAITING ") {
				waitLine = 1
			}
			cur.parseDetail(line)
		}
	}
	flush()
	return trx, truncated
}

// recField is one field of a printed record: " 1: len 6; hex 000000000020; asc ...".
type recField struct {
	len int
	hex string
}

func parseRecField(line string) (recField, bool) {
	line = strings.TrimSpace(line)
	num, rest, ok := strings.Cut(line, ": ")
	if _, err := strconv.Atoi(num); !ok || err != nil {
		return recField{}, false
	}
	l, rest, ok := strings.Cut(rest, "; hex ")
	ln, err := strconv.Atoi(strings.TrimPrefix(l, "len "))
	if !ok || err != nil {
		return recField{len: -1}, true // SQL NULL, a cut field: kept in place
	}
	hex, _, _ := strings.Cut(rest, ";")
	return recField{len: ln, hex: hex}, true
}

// recordTrxID finds a clustered index record's DB_TRX_ID: the first field
// of 6 bytes followed by one of 7 (DB_ROLL_PTR), after the key fields. It
// is trusted only when it names an active transaction.
func recordTrxID(fields []recField) string {
	for i := 0; i+1 < len(fields); i++ {
		if fields[i].len == 6 && fields[i+1].len == 7 && len(fields[i].hex) == 12 {
			v, err := strconv.ParseUint(fields[i].hex, 16, 64)
			if err != nil || v == 0 {
				return ""
			}
			return strconv.FormatUint(v, 10)
		}
	}
	return ""
}

// waitedRecordPage reads "space id 5 page no 3" of a RECORD LOCKS line as
// "space 5 page 3"; "" for a table lock.
func waitedRecordPage(line string) string {
	if !strings.HasPrefix(line, "RECORD LOCKS ") {
		return ""
	}
	space, ok1 := intAfter(line, "space id ")
	page, ok2 := intAfter(line, "page no ")
	if !ok1 || !ok2 {
		return ""
	}
	return fmt.Sprintf("space %d page %d", space, page)
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
