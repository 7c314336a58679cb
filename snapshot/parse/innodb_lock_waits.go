package parse

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
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
func InnoDBLockWaits(raw string) (waits []snapshot.LockWait, threads []snapshot.LockThread, truncated bool) {
	trx, truncated := innoDBWaitingTrx(raw)
	byID := make(map[string]*innoDBTrxWait, len(trx))
	for i := range trx {
		byID[trx[i].ID] = &trx[i]
		t := &trx[i]
		threads = append(threads, snapshot.LockThread{ID: t.ThreadID, TrxID: t.ID, TrxAgeS: t.ActiveSeconds, TrxState: t.State,
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
		if t.tableWait {
			waits = append(waits, tableLockEdges(t, trx)...)
			continue
		}
		e := snapshot.LockWait{Waiter: t.ThreadID, Kind: snapshot.LockRow, Object: t.obj, Record: t.rec, WaitS: t.LockWaitSeconds}
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

// innoDBStatusSource names the InnoDB status as a lock source.
const innoDBStatusSource = "SHOW ENGINE INNODB STATUS"

// InnoDBWaitSources names, for Locks.Sources, the InnoDB status as the
// source of the row-lock edges (always: none listed is a reading too) and of
// the table-lock edges when InnoDBLockWaits gave some, each "(inferred)" or
// "(partly inferred)" where holders were guessed.
func InnoDBWaitSources(waits []snapshot.LockWait) map[snapshot.LockKind]string {
	out := map[snapshot.LockKind]string{snapshot.LockRow: innoDBSourceOf(waits, snapshot.LockRow, "holders from the records")}
	if slices.ContainsFunc(waits, func(w snapshot.LockWait) bool { return w.Kind == snapshot.LockTable }) {
		out[snapshot.LockTable] = innoDBSourceOf(waits, snapshot.LockTable, "holders from their lock lists")
	}
	return out
}

func innoDBSourceOf(waits []snapshot.LockWait, kind snapshot.LockKind, exactly string) string {
	inferred, exact := 0, 0
	for _, w := range waits {
		switch {
		case w.Kind != kind:
		case w.Inferred:
			inferred++
		default:
			exact++
		}
	}
	switch {
	case inferred == 0:
		return innoDBStatusSource + " (" + exactly + ")"
	case exact == 0:
		return innoDBStatusSource + " (inferred)"
	}
	return innoDBStatusSource + " (partly inferred)"
}

// InnoDBHolderCandidates lists, for a note, the threads (or transactions
// with no thread) that may hold a record whose holder the InnoDB status
// does not print: active, holding row locks, not waiting.
func InnoDBHolderCandidates(threads []snapshot.LockThread, waits []snapshot.LockWait) []string {
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
	snapshot.InnoDBTrx
	obj    string // "shop.acct PRIMARY"
	rec    string // "space 5 page 3 heap 2"
	recTrx string // the waited-for record's DB_TRX_ID, decimal
	// tableWait: it waits for a table lock (obj the table) in mode.
	tableWait bool
	mode      string
	// held are the table locks its lock list shows granted (printed only
	// with innodb_status_output_locks=ON).
	held []heldTableLock
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
	inQuery := false
	var fields []recField
	flush := func() {
		if have && strings.HasPrefix(cur.State, "ACTIVE") {
			cur.recTrx = recordTrxID(fields)
			trx = append(trx, cur)
		}
		have, waitLine, inQuery, fields = false, 0, false, fields[:0]
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
			if _, mode, _, ok := tableLockLine(line); ok {
				cur.tableWait, cur.mode = true, mode
			}
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
		case inQuery && !isTrxDetail(line):
			appendTrxQuery(&cur.InnoDBTrx, line) // a table lock's holder is known by its statement
		default:
			if strings.HasPrefix(line, "------- TRX HAS BEEN WAITING ") {
				waitLine = 1
			}
			if table, mode, waiting, ok := tableLockLine(line); ok && !waiting {
				cur.held = append(cur.held, heldTableLock{table: table, mode: mode})
			}
			inQuery = parseTrxDetail(&cur.InnoDBTrx, line)
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
