package collectors

import (
	"database/sql"
	"slices"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

func nullRow(cells ...string) []sql.NullString {
	out := make([]sql.NullString, len(cells))
	for i, c := range cells {
		out[i] = sql.NullString{String: c, Valid: c != "NULL"}
	}
	return out
}

func TestXIDLiteral(t *testing.T) {
	for _, c := range []struct {
		data, format string
		gl, bl       int64
		want         string
	}{
		{"'xid1'", "1", 4, 0, "'xid1'"},                   // MariaDB FORMAT='SQL'
		{"X'612762',X'71'", "1", 3, 1, "X'612762',X'71'"}, // MariaDB, bqual
		{"0x78696431", "1", 4, 0, "X'78696431'"},          // MySQL CONVERT XID
		{"0x6162", "7", 1, 1, "X'61',X'62',7"},
		{"0x61", "1", 4, 0, "X'61'"}, // lengths that do not fit
	} {
		if got := xidLiteral(c.data, c.format, c.gl, c.bl); got != c.want {
			t.Errorf("xidLiteral(%q, %s, %d, %d) = %q, want %q", c.data, c.format, c.gl, c.bl, got, c.want)
		}
	}
}

// INNODB_TRX lists an XA PREPARED transaction whose session ended with
// thread 0 and state RUNNING: it is kept as a holder with no thread, and
// the InnoDB status says it is prepared.
func TestDecodeTrxKeepsThreadlessAndMarksPrepared(t *testing.T) {
	tb := &table{rows: [][]sql.NullString{
		nullRow("36", "10", "LOCK WAIT", "9", "9", "1", "0"),
		nullRow("32", "0", "RUNNING", "11", "NULL", "1", "1"),
		nullRow("40", "0", "RUNNING", "300", "NULL", "5", "5"),
	}}
	info := newTrxInfo()
	l := &snapshot.Locks{}
	decodeTrx(tb, &info, l)
	if info.thread["36"] != 10 || !info.threadless["32"] || info.waitS[10] != 9 || len(l.Threads) != 3 {
		t.Fatalf("info %+v threads %+v", info, l.Threads)
	}
	raw := "---TRANSACTION 32, ACTIVE (PREPARED) 11 sec recovered trx\n---TRANSACTION 40, ACTIVE 300 sec recovered trx\n"
	markPrepared(l, []int{1, 2}, raw, true)
	if xa := l.Trx("32"); !xa.Prepared() || xa.RowsModified != 1 || xa.ID != 0 {
		t.Errorf("XA transaction %+v", xa)
	}
	if rec := l.Trx("40"); rec.Prepared() || rec.TrxState != "RECOVERED" ||
		rec.Ends() != "its rollback by the server (a recovered transaction: it ends when the background rollback does)" {
		t.Errorf("recovered transaction %+v", rec)
	}
	if l.Thread(0) != nil {
		t.Error("Thread(0) found a transaction with no thread")
	}
}

func TestDecodeMDLInfoNamespaces(t *testing.T) {
	tb := &table{rows: [][]sql.NullString{
		nullRow("28", "", "", "MDL_BACKUP_FTWRL2", "Backup lock"),
		nullRow("29", "shop", "t2", "MDL_SHARED_WRITE", "Table metadata lock"),
		nullRow("5", "", "", "MDL_SHARED", "Global read lock"),
	}}
	got := decodeMDLInfo(tb)
	want := []infer.MDLHold{{Thread: 28, Mode: "BACKUP_FTWRL2", Space: infer.SpaceBackup},
		{Thread: 29, Table: "shop.t2", Mode: "SHARED_WRITE"}, {Thread: 5, Mode: "SHARED", Space: infer.SpaceGlobal}}
	if !slices.Equal(got, want) {
		t.Errorf("holds %+v", got)
	}
}
