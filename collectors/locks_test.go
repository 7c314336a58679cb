package collectors

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// readTSV reads a result set as `mysql -B` prints it (header, tab-separated
// rows, NULL for NULL): captured output for servers the tests cannot run.
func readTSV(t *testing.T, path string) *table {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	tb := &table{cols: strings.Split(strings.ToUpper(lines[0]), "\t")}
	for _, l := range lines[1:] {
		var row []sql.NullString
		for _, c := range strings.Split(l, "\t") {
			row = append(row, sql.NullString{String: c, Valid: c != "NULL"})
		}
		tb.rows = append(tb.rows, row)
	}
	return tb
}

func rawRow(r []sql.NullString) []sql.RawBytes {
	out := make([]sql.RawBytes, len(r))
	for i, c := range r {
		if c.Valid {
			out[i] = sql.RawBytes(c.String)
		}
	}
	return out
}

func lockProc(id int64, cmd string, secs int64, state, info string) snapshot.Process {
	return snapshot.Process{ID: id, User: "app", Command: cmd, TimeMS: secs * 1000, State: state, Info: info}
}

// MySQL 8.0: performance_schema.data_lock_waits joined to data_locks, and
// INNODB_TRX, as the collector's statements return them (written from the
// reference manual's tables; no MySQL 8 server runs in the tests).
func TestLocksMySQL8DataLockWaits(t *testing.T) {
	var info = trxInfo{thread: map[string]int64{}, waitS: map[int64]int64{}}
	l := &snapshot.Locks{}
	decodeTrx(readTSV(t, "testdata/locks/mysql80-innodb_trx.tsv"), &info, l)
	acc := newRowWaitAcc(info)
	for _, r := range readTSV(t, "testdata/locks/mysql80-data_lock_waits.tsv").rows {
		acc.addRaw(rawRow(r))
	}
	l.Waits = acc.edges()
	const upd = "UPDATE shop.acct SET bal = 0 WHERE id = 1"
	s := &snapshot.Snapshot{Locks: l, Processlist: []snapshot.Process{
		lockProc(11, "Sleep", 300, "", ""), lockProc(12, "Query", 9, "updating", upd),
		lockProc(13, "Query", 7, "updating", upd), lockProc(14, "Query", 3, "updating", upd),
	}}
	tr := infer.BuildLockTree(s)
	if tr == nil || len(tr.Roots) != 1 {
		t.Fatalf("tree %+v from %+v", tr, l.Waits)
	}
	r := tr.Roots[0]
	if r.Thread != 11 || r.Waiters != 3 || r.AgeS() != 312 || r.Statement() != "idle in transaction for 300 s" {
		t.Errorf("root %d waiters %d age %d %q", r.Thread, r.Waiters, r.AgeS(), r.Statement())
	}
	var chain *infer.LockNode
	for _, c := range r.Children {
		if c.Thread == 12 {
			chain = c
		}
	}
	if chain == nil || len(chain.Children) != 1 || chain.Children[0].Thread != 13 {
		t.Errorf("13 should wait behind 12: %+v", r.Children)
	}
	if w := r.Children[0].Wait; w.Object != "shop.acct PRIMARY" || w.Mode != "X,REC_NOT_GAP" || w.WaitS == 0 {
		t.Errorf("edge %+v", w)
	}
	if th := l.Thread(15); th == nil || th.TrxAgeS != 40 {
		t.Errorf("read-only transaction lost: %+v", th)
	}
}

// MySQL 8.0 performance_schema.metadata_locks: an open transaction (21) in
// front of ALTER (22, pending EXCLUSIVE), a SELECT (23) behind the ALTER.
func TestLocksMySQL8MetadataLocks(t *testing.T) {
	holds := decodeMetadataLocks(readTSV(t, "testdata/locks/mysql80-metadata_locks.tsv"))
	const mdl = "Waiting for table metadata lock"
	ps := []snapshot.Process{
		lockProc(21, "Sleep", 60, "", ""),
		lockProc(22, "Query", 30, mdl, "ALTER TABLE shop.acct ADD INDEX (bal)"),
		lockProc(23, "Query", 20, mdl, "SELECT * FROM shop.acct"),
		lockProc(24, "Sleep", 90, "", ""),
	}
	s := &snapshot.Snapshot{Processlist: ps, Locks: &snapshot.Locks{Waits: infer.MetadataWaits(ps, holds, nil)}}
	tr := infer.BuildLockTree(s)
	if tr == nil || len(tr.Roots) != 1 || tr.Roots[0].Thread != 21 || tr.Roots[0].Waiters != 2 || tr.Inferred {
		t.Fatalf("tree %+v, waits %+v", tr, s.Locks.Waits)
	}
}

func TestLocksBoundedStatement(t *testing.T) {
	c := &locks{budget: lockBudget(1e9)}
	maria := &session{Caps: Capabilities{Flavor: snapshot.FlavorMariaDB}}
	mysql8 := &session{Caps: Capabilities{Flavor: snapshot.FlavorMySQL}}
	bg := context.Background()
	if got, _ := c.bounded(bg, maria, "SELECT 1"); got != "SET STATEMENT max_statement_time=0.200 FOR SELECT 1" {
		t.Errorf("mariadb: %q", got)
	}
	if got, _ := c.bounded(bg, mysql8, "SELECT 1"); got != "SELECT /*+ MAX_EXECUTION_TIME(200) */ 1" {
		t.Errorf("mysql: %q", got)
	}
}

// A lock statement's limit is the smaller of its budget and the tick's time
// left (less a margin), so a slow lock read ends on the server's side before
// the tick's deadline cuts the connection.
func TestLocksStatementLimitIsTheTicksTimeLeft(t *testing.T) {
	c := &locks{budget: lockBudget(time.Second)} // 200 ms
	maria := &session{Caps: Capabilities{Flavor: snapshot.FlavorMariaDB}}
	for _, tt := range []struct {
		left   time.Duration
		max    int64 // ms
		sendOK bool
	}{
		{time.Second, 200, true},
		{150 * time.Millisecond, 100, true},
		{80 * time.Millisecond, 30, true},
		{40 * time.Millisecond, 0, false},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), tt.left)
		got, ok := c.bounded(ctx, maria, "SELECT 1")
		cancel()
		if ok != tt.sendOK {
			t.Errorf("%v left: ok=%v %q", tt.left, ok, got)
			continue
		}
		if !ok {
			continue
		}
		var sec float64
		if _, err := fmt.Sscanf(got, "SET STATEMENT max_statement_time=%g FOR", &sec); err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		if ms := int64(sec * 1000); ms > tt.max || ms <= 0 {
			t.Errorf("%v left: limit %d ms, want 1..%d", tt.left, ms, tt.max)
		}
	}
}

// sessionQuestions is the server's count of statements on the session's
// own connection, so the test counts what the collector sent.
func sessionQuestions(t *testing.T, sess *session) int64 {
	t.Helper()
	var name string
	var n int64
	if err := sess.conn.QueryRowContext(context.Background(), "SHOW SESSION STATUS LIKE 'Questions'").Scan(&name, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
