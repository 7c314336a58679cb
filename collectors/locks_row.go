package collectors

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// rowSource is where row-lock waits are read from on this connection.
type rowSource int

const (
	rowUnknown rowSource = iota
	rowPerfSchema
	rowInfoSchema
)

// Row-lock sources. The waits are read without joining information_schema
// tables in SQL: MariaDB materialises each and joins them without an index,
// and a hot row with 1,000 waiters lists ~500,000 waits (every request waits
// for the holder and for each request queued before it), so the join is done
// here, in maps. MySQL 8's data_locks is joined by its primary key only,
// never scanned: a full read lists every lock of every transaction.
const (
	srcDataLockWaits  = "performance_schema.data_lock_waits"
	srcInnoDBLockWait = "information_schema.INNODB_LOCK_WAITS"
	srcInnoDBTrx      = "information_schema.INNODB_TRX"
	srcInnoDBLocks    = "information_schema.INNODB_LOCKS"

	// trxQuery reads the ages against the server's clock in the system time
	// zone: INNODB_TRX prints trx_started in the system zone (localtime),
	// NOW() is in the session's, so with time_zone other than SYSTEM a plain
	// TIMESTAMPDIFF(..., NOW()) is off by the zones' difference (5 hours
	// with --default-time-zone=+05:00 on a UTC host).
	trxQuery = "SELECT trx_id, trx_mysql_thread_id, trx_state, TIMESTAMPDIFF(SECOND, trx_started, " + serverNowSystemTZ + ")," +
		" TIMESTAMPDIFF(SECOND, trx_wait_started, " + serverNowSystemTZ + "), trx_rows_locked, trx_rows_modified" +
		" FROM information_schema.INNODB_TRX"
	// serverNowSystemTZ is NOW() in the system time zone (NOW() itself
	// when the conversion is not possible).
	serverNowSystemTZ  = "COALESCE(CONVERT_TZ(NOW(), @@session.time_zone, 'SYSTEM'), NOW())"
	dataLockWaitsQuery = "SELECT w.REQUESTING_ENGINE_TRANSACTION_ID, w.BLOCKING_ENGINE_TRANSACTION_ID," +
		" w.REQUESTING_ENGINE_LOCK_ID, l.OBJECT_SCHEMA, l.OBJECT_NAME, l.INDEX_NAME, l.LOCK_MODE, l.LOCK_DATA," +
		" l.LOCK_TYPE" +
		" FROM performance_schema.data_lock_waits w LEFT JOIN performance_schema.data_locks l" +
		" ON l.ENGINE_LOCK_ID = w.REQUESTING_ENGINE_LOCK_ID AND l.ENGINE = w.ENGINE"
	innoDBLockWaitsQuery = "SELECT requesting_trx_id, blocking_trx_id, requested_lock_id" +
		" FROM information_schema.INNODB_LOCK_WAITS"
	innoDBLocksQuery = "SELECT lock_id, lock_table, lock_index, lock_mode, lock_data, lock_type" +
		" FROM information_schema.INNODB_LOCKS"
)

// trxInfo maps transaction ids to threads, with their wait ages.
type trxInfo struct {
	thread map[string]int64
	waitS  map[int64]int64
	// threadless are the transactions with no thread (XA PREPARED after
	// their session ended, recovered at start-up): holders with no session.
	threadless map[string]bool
}

func newTrxInfo() trxInfo {
	return trxInfo{thread: map[string]int64{}, waitS: map[int64]int64{}, threadless: map[string]bool{}}
}

// readTrx reads the open transactions into l.Threads (the InnoDB status's
// list when INNODB_TRX is refused).
func (c *locks) readTrx(ctx context.Context, sess *session, s *snapshot.Snapshot, l *snapshot.Locks) (trxInfo, error) {
	info := newTrxInfo()
	t, refused, err := c.query(ctx, sess, srcInnoDBTrx, trxQuery)
	if err != nil || refused != "" {
		if refused != "" {
			note(l, "transactions: %s %s", srcInnoDBTrx, refused)
			st, err := c.innoDBForLocks(ctx, sess, s, l)
			if st != nil {
				l.Threads = infer.InnoDBLockThreads(st.Transactions)
			}
			return info, err
		}
		return info, err
	}
	decodeTrx(t, &info, l)
	return info, nil
}

func decodeTrx(t *table, info *trxInfo, l *snapshot.Locks) {
	for _, r := range t.rows {
		trxID, id := cell(r, 0), parseInt(cell(r, 1))
		if trxID == "" {
			continue
		}
		if id == 0 {
			if info.threadless == nil {
				info.threadless = map[string]bool{}
			}
			info.threadless[trxID] = true
		} else {
			info.thread[trxID] = id
		}
		age := int64(-1)
		if len(r) > 3 && r[3].Valid {
			age = parseInt(r[3].String)
		}
		if len(r) > 4 && r[4].Valid && id != 0 {
			info.waitS[id] = parseInt(r[4].String)
		}
		l.Threads = append(l.Threads, snapshot.LockThread{ID: id, TrxID: trxID, TrxAgeS: age, TrxState: cell(r, 2),
			RowsLocked: parseInt(cell(r, 5)), RowsModified: parseInt(cell(r, 6))})
	}
}

// rowWaits adds the row-lock edges from the best source this server offers.
func (c *locks) rowWaits(ctx context.Context, sess *session, s *snapshot.Snapshot, l *snapshot.Locks, trx trxInfo) error {
	var why []string
	for _, src := range []rowSource{rowPerfSchema, rowInfoSchema} {
		if (c.row == rowPerfSchema || c.row == rowInfoSchema) && c.row != src {
			continue
		}
		acc := newRowWaitAcc(trx)
		readAt := time.Now()
		ok, err := c.readRowSource(ctx, sess, src, acc, &why)
		if err != nil {
			return err
		}
		if ok {
			c.row = src
			waits := acc.edges()
			// The counter was read this tick; the InnoDB status may be older.
			if cur, ok := s.StatusInt("Innodb_row_lock_current_waits"); len(waits) > 0 || ok && cur == 0 ||
				!ok && (s.InnoDB == nil || s.InnoDB.Transactions.LockWaits == 0) {
				l.Waits = append(l.Waits, waits...)
				l.Sources[snapshot.LockRow] = rowSourceName(src)
				l.ReadAt[snapshot.LockRow] = readAt
				if hasKind(waits, snapshot.LockTable) {
					l.Sources[snapshot.LockTable] = rowSourceName(src)
					l.ReadAt[snapshot.LockTable] = readAt
				}
				return nil
			}
			why = append(why, rowSourceName(src)+" listed no waits while InnoDB reports some")
			break
		}
	}
	for _, r := range why {
		note(l, "row locks: %s", r)
	}
	st, err := c.innoDBForLocks(ctx, sess, s, l)
	if err != nil || st == nil {
		return err
	}
	if !st.Transactions.Present {
		note(l, "row locks: no lock table readable and no transactions in the InnoDB status; waiters not shown")
		return nil
	}
	l.ReadAt[snapshot.LockRow] = st.ReadAt
	if st.Raw != "" {
		waits, threads, _ := parse.InnoDBLockWaits(st.Raw)
		l.Waits = append(l.Waits, waits...)
		if len(l.Threads) == 0 {
			l.Threads = threads
		}
		innoDBSources(l, waits, st.ReadAt)
		return nil
	}
	l.Waits = append(l.Waits, infer.InnoDBRowWaits(st.Transactions)...)
	l.Sources[snapshot.LockRow] = srcInnoDBStatus + " (inferred)"
	return nil
}

func rowSourceName(src rowSource) string {
	if src == rowPerfSchema {
		return srcDataLockWaits
	}
	return srcInnoDBLockWait
}

// readRowSource reads one source into acc; false when the server refused it
// (the reason is noted).
func (c *locks) readRowSource(ctx context.Context, sess *session, src rowSource, acc *rowWaitAcc, why *[]string) (bool, error) {
	name := rowSourceName(src)
	if r, ok := c.refused.get(name); ok {
		*why = append(*why, name+" "+r)
		return false, nil
	}
	stmt := innoDBLockWaitsQuery
	if src == rowPerfSchema {
		stmt = dataLockWaitsQuery
	}
	bounded, ok := c.bounded(ctx, sess, stmt)
	if !ok {
		*why = append(*why, name+" "+noTimeLeft)
		return false, nil
	}
	err := eachRow(ctx, sess.conn, bounded, func([]string) {}, acc.addRaw)
	if err == nil && src == rowInfoSchema {
		err = c.readLockObjects(ctx, sess, acc)
	}
	if err == nil || serverErrno(err) == 0 {
		return err == nil, err
	}
	reason := refusalReason(err, name)
	if rememberRefusal(err) {
		c.refused.set(name, reason, c.now)
	}
	*why = append(*why, name+" "+reason)
	return false, nil
}

// readLockObjects names the requested locks (MariaDB, MySQL 5.7).
func (c *locks) readLockObjects(ctx context.Context, sess *session, acc *rowWaitAcc) error {
	bounded, ok := c.bounded(ctx, sess, innoDBLocksQuery)
	if !ok {
		return nil // the waits are kept, unnamed
	}
	return eachRow(ctx, sess.conn, bounded, func([]string) {}, func(r []sql.RawBytes) {
		if len(r) < 4 {
			return
		}
		o := snapshot.NewRowLockObject(unquoteName(string(r[1])), string(r[2]), string(r[3]))
		if len(r) > 4 {
			o.Record = string(r[4])
		}
		o.Table = len(r) > 5 && snapshot.InnoDBTableLock(string(r[5]))
		acc.objects[string(r[0])] = o
	})
}

// rowWaitAcc gathers waits row by row into a snapshot.RowWaitSet, which
// the import of captured lock tables shares.
type rowWaitAcc struct {
	trx     trxInfo
	set     infer.RowWaitSet
	objects map[string]snapshot.RowLockObject // requested lock id -> what it locks
}

func newRowWaitAcc(trx trxInfo) *rowWaitAcc {
	return &rowWaitAcc{trx: trx, objects: map[string]snapshot.RowLockObject{}}
}

// addRaw takes one row: requesting trx, blocking trx, requested lock id and,
// from data_locks, schema, table, index and mode.
func (a *rowWaitAcc) addRaw(r []sql.RawBytes) {
	if len(r) < 3 {
		return
	}
	var obj snapshot.RowLockObject
	if len(r) >= 7 && r[4] != nil {
		obj = snapshot.NewRowLockObject(string(r[3])+"."+string(r[4]), string(r[5]), string(r[6]))
		if len(r) >= 8 {
			obj.Record = string(r[7]) // the record's key, e.g. "1"
		}
		obj.Table = len(r) >= 9 && snapshot.InnoDBTableLock(string(r[8]))
	}
	a.set.Add(string(r[0]), string(r[1]), string(r[2]), obj)
}

// unquoteName turns "`shop`.`acct`" into "shop.acct".
func unquoteName(s string) string { return strings.ReplaceAll(s, "`", "") }

// edges turns the gathered waits into edges between threads
// (snapshot.RowWaitSet.Edges).
func (a *rowWaitAcc) edges() []snapshot.LockWait {
	return a.set.Edges(infer.RowWaitThreads{Thread: a.trx.thread, WaitS: a.trx.waitS, Threadless: a.trx.threadless},
		a.objects)
}

// hasKind reports an edge of kind among waits.
func hasKind(waits []snapshot.LockWait, kind snapshot.LockKind) bool {
	for _, w := range waits {
		if w.Kind == kind {
			return true
		}
	}
	return false
}
