package parse

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Parsers of captured lock-table listings in \G form: pt-stalk's
// -lock-waits (its join over INNODB_LOCK_WAITS and INNODB_TRX on MySQL 5.x
// and MariaDB, or sys.innodb_lock_waits / performance_schema.data_lock_waits
// on MySQL 8) and -transactions (INNODB_TRX, INNODB_LOCKS, INNODB_LOCK_WAITS).
// Rows are read by their column names, so one reader takes every layout.

// VerticalRow is one record of \G output: its row number, the line it
// starts on, and its fields by lower-case column name.
type VerticalRow struct {
	N, Line int
	Fields  map[string]string
	last    string
}

// VerticalRows cuts \G output into records, a line at a time: Line for each
// line, Flush at the end (or before a marker that starts a new sample).
type VerticalRows struct {
	// Emit receives each finished record.
	Emit func(VerticalRow)
	// Stray receives a non-empty line outside any record.
	Stray func(line int, text string)
	cur   *VerticalRow
}

// Line takes line n of the output.
func (v *VerticalRows) Line(n int, line string) {
	if m, ok := ParseVerticalRowMarker(line); ok {
		v.Flush()
		v.cur = &VerticalRow{N: m, Line: n, Fields: map[string]string{}}
		return
	}
	if v.cur == nil {
		if strings.TrimSpace(line) != "" && v.Stray != nil {
			v.Stray(n, line)
		}
		return
	}
	if k, val, ok := parseVerticalField(line); ok {
		k = snapshot.LowerASCII(k)
		v.cur.Fields[k], v.cur.last = val, k
		return
	}
	if v.cur.last != "" { // a multi-line value (a statement) goes on
		v.cur.Fields[v.cur.last] += "\n" + strings.TrimRight(line, "\r\n")
	}
}

// Flush emits the record in progress, if any.
func (v *VerticalRows) Flush() {
	if v.cur != nil && v.Emit != nil {
		v.Emit(*v.cur)
	}
	v.cur = nil
}

// CapturedLockWait is one wait of a captured listing: transaction
// WaitingTrx (thread Waiter) waits for a lock BlockingTrx (thread Blocker)
// holds or asked for first. Unknown numbers are -1, unknown threads 0.
type CapturedLockWait struct {
	WaitingTrx, BlockingTrx string
	Waiter, Blocker         int64
	WaitS                   int64
	// LockID is the requested lock's id, where the listing has it.
	LockID             string
	Table, Index, Mode string
	WaitingQuery       string
	BlockingQuery      string
	BlockerIdleS       int64
	WaiterTrxAgeS      int64
	BlockerTrxAgeS     int64
	WaiterRowsLocked   int64
	BlockerRowsLocked  int64
}

// Column names of each value across the layouts: pt-stalk's own join,
// sys.innodb_lock_waits, and the raw INNODB_LOCK_WAITS / data_lock_waits.
var (
	colWaitingTrx  = []string{"waiting_trx_id", "requesting_trx_id", "requesting_engine_transaction_id"}
	colBlockingTrx = []string{"blocking_trx_id", "blocking_engine_transaction_id"}
	colWaiter      = []string{"waiting_thread", "waiting_pid"}
	colBlocker     = []string{"blocking_thread", "blocking_pid"}
	colLockID      = []string{"waiting_lock_id", "requested_lock_id", "requesting_engine_lock_id"}
	colTable       = []string{"waiting_table_lock", "locked_table"}
)

// IsLockWaitSummary: the row is pt-stalk's per-blocker summary
// (who_blocks, num_waiters), which repeats the waits listed after it.
func IsLockWaitSummary(r VerticalRow) bool {
	_, ok := r.Fields["who_blocks"]
	return ok
}

// ParseCapturedLockWait reads a listing's row. ok is false for a row that
// names no waiting and blocking transaction (another table's row); err says
// what is wrong with one that names them but cannot be read.
func ParseCapturedLockWait(r VerticalRow) (w CapturedLockWait, ok bool, err error) {
	f := r.Fields
	var okW, okB bool
	w.WaitingTrx, okW = field(f, colWaitingTrx)
	w.BlockingTrx, okB = field(f, colBlockingTrx)
	if !okW && !okB {
		return w, false, nil
	}
	if w.WaitingTrx == "" || w.BlockingTrx == "" || !okW || !okB {
		return w, true, fmt.Errorf("lock wait row %d names no waiting or no blocking transaction (cut short?)", r.N)
	}
	if w.Waiter, err = threadField(f, colWaiter); err == nil {
		w.Blocker, err = threadField(f, colBlocker)
	}
	if err != nil {
		return w, true, fmt.Errorf("lock wait row %d: %v", r.N, err)
	}
	w.WaitS = secondsField(f, "wait_time", "wait_age_secs", "wait_age")
	w.LockID, _ = field(f, colLockID)
	table, _ := field(f, colTable)
	w.Table = strings.ReplaceAll(cellValue(table), "`", "")
	w.Index, _ = field(f, []string{"locked_index"})
	w.Index = cellValue(w.Index)
	w.Mode, _ = field(f, []string{"waiting_lock_mode"})
	w.Mode = cellValue(w.Mode)
	w.WaitingQuery = cellValue(f["waiting_query"])
	w.BlockingQuery = cellValue(f["blocking_query"])
	w.BlockerIdleS = secondsField(f, "idle_in_trx")
	w.WaiterTrxAgeS = secondsField(f, "waiting_trx_age")
	w.BlockerTrxAgeS = secondsField(f, "blocking_trx_age")
	w.WaiterRowsLocked = countField(f, "waiting_trx_rows_locked")
	w.BlockerRowsLocked = countField(f, "blocking_trx_rows_locked")
	return w, true, nil
}

// CapturedTrx is one INNODB_TRX row.
type CapturedTrx struct {
	ID            string
	Thread        int64
	State         string
	Started       time.Time
	WaitStarted   time.Time
	RowsLocked    int64
	RequestedLock string
}

// ParseCapturedTrx reads an INNODB_TRX row; times are the server's local
// time, read in loc. ok is false for rows of other tables.
func ParseCapturedTrx(r VerticalRow, loc *time.Location) (CapturedTrx, bool) {
	f := r.Fields
	id, ok := f["trx_id"]
	if !ok {
		return CapturedTrx{}, false
	}
	t := CapturedTrx{ID: id, State: f["trx_state"], RequestedLock: cellValue(f["trx_requested_lock_id"])}
	t.Thread, _ = strconv.ParseInt(f["trx_mysql_thread_id"], 10, 64)
	t.RowsLocked, _ = strconv.ParseInt(f["trx_rows_locked"], 10, 64)
	t.Started, _ = time.ParseInLocation(time.DateTime, f["trx_started"], loc)
	t.WaitStarted, _ = time.ParseInLocation(time.DateTime, f["trx_wait_started"], loc)
	return t, true
}

// ParseCapturedLock reads an INNODB_LOCKS (or data_locks) row: the lock's
// id and what it locks. ok is false for rows of other tables.
func ParseCapturedLock(r VerticalRow) (id string, obj snapshot.RowLockObject, ok bool) {
	f := r.Fields
	if id, ok = f["lock_id"]; ok {
		table := strings.ReplaceAll(cellValue(f["lock_table"]), "`", "")
		obj = snapshot.NewRowLockObject(table, cellValue(f["lock_index"]), cellValue(f["lock_mode"]))
		obj.Table = snapshot.InnoDBTableLock(cellValue(f["lock_type"]))
		return id, obj, true
	}
	if id, ok = f["engine_lock_id"]; ok {
		table := cellValue(f["object_schema"]) + "." + cellValue(f["object_name"])
		obj = snapshot.NewRowLockObject(table, cellValue(f["index_name"]), cellValue(f["lock_mode"]))
		obj.Table = snapshot.InnoDBTableLock(cellValue(f["lock_type"]))
		return id, obj, true
	}
	return "", snapshot.RowLockObject{}, false
}

func field(f map[string]string, names []string) (string, bool) {
	for _, n := range names {
		if v, ok := f[n]; ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

func threadField(f map[string]string, names []string) (int64, error) {
	v, ok := field(f, names)
	if !ok || v == "" || v == "NULL" {
		return 0, nil // raw tables: the thread comes from INNODB_TRX
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 0 {
		return 0, fmt.Errorf("thread %q is not a connection id", v)
	}
	return id, nil
}

// secondsField reads the first named column present as whole seconds: a
// number, or sys's "HH:MM:SS" ages; -1 when absent or unreadable.
func secondsField(f map[string]string, names ...string) int64 {
	v, ok := field(f, names)
	if !ok {
		return -1
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return n
	}
	if h, rest, ok := strings.Cut(v, ":"); ok {
		if m, s, ok := strings.Cut(rest, ":"); ok {
			hh, e1 := strconv.ParseInt(h, 10, 64)
			mm, e2 := strconv.ParseInt(m, 10, 64)
			ss, e3 := strconv.ParseFloat(s, 64)
			if e1 == nil && e2 == nil && e3 == nil && hh >= 0 && mm >= 0 && ss >= 0 {
				return hh*3600 + mm*60 + int64(ss)
			}
		}
	}
	return -1
}

// cellValue is a trimmed cell, "" for NULL.
func cellValue(s string) string { return nullToEmpty(strings.TrimSpace(s)) }

// countField reads a non-negative count; -1 when absent or unreadable.
func countField(f map[string]string, names ...string) int64 {
	v, ok := field(f, names)
	if !ok {
		return -1
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}
