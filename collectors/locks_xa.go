package collectors

import (
	"context"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

const srcXARecover = "XA RECOVER"

// threadlessTrx names the transactions with no thread that hold locks: an
// XA transaction PREPARED before its session ended (MariaDB 10.5+ and MySQL
// 8 keep it, with its locks, until XA COMMIT or XA ROLLBACK), or one
// recovered at start-up. It reads XA RECOVER (only when there is such a
// transaction) for the xid that ends it. Nothing ties an xid to a
// transaction id in the server's tables, so the xid is named when one
// prepared transaction matches one xid, else the candidates are listed.
func (c *locks) threadlessTrx(ctx context.Context, sess *session, s *snapshot.Snapshot, l *snapshot.Locks) error {
	var idx []int
	for i := range l.Threads {
		if l.Threads[i].ID == 0 && l.Threads[i].TrxID != "" {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	var raw string
	if s.InnoDB != nil {
		raw = s.InnoDB.Raw
	}
	stmt := "XA RECOVER FORMAT='SQL'"
	if sess.Caps.Flavor != snapshot.FlavorMariaDB {
		stmt = "XA RECOVER CONVERT XID"
	}
	t, refused, err := c.query(ctx, sess, srcXARecover, stmt)
	if err != nil {
		return err
	}
	if refused != "" {
		note(l, "transactions with no connection: %s %s; their xid is not shown", srcXARecover, refused)
	}
	var xids []string
	if t != nil {
		data, fmtID, gl, bl := t.col("DATA"), t.col("FORMATID"), t.col("GTRID_LENGTH"), t.col("BQUAL_LENGTH")
		for _, r := range t.rows {
			if x := xidLiteral(cell(r, data), cell(r, fmtID), parseInt(cell(r, gl)), parseInt(cell(r, bl))); x != "" {
				xids = append(xids, x)
			}
		}
	}
	markPrepared(l, idx, raw, len(xids) > 0)
	var prepared []int
	for _, i := range idx {
		if l.Threads[i].Prepared() {
			prepared = append(prepared, i)
		}
	}
	switch {
	case len(prepared) == 1 && len(xids) == 1:
		l.Threads[prepared[0]].XID = xids[0]
	case len(prepared) > 0 && len(xids) > 0:
		slices.Sort(xids)
		for _, i := range prepared {
			l.Threads[i].XIDCandidates = xids
		}
	}
	return nil
}

// markPrepared sets the PREPARED state INNODB_TRX does not show (it says
// RUNNING): from the InnoDB status ("---TRANSACTION 58, ACTIVE (PREPARED)
// 3 sec recovered trx"), else, when XA RECOVER lists xids, on every
// transaction with no thread.
func markPrepared(l *snapshot.Locks, idx []int, raw string, anyXID bool) {
	for _, i := range idx {
		th := &l.Threads[i]
		if th.Prepared() {
			continue
		}
		switch {
		case raw != "" && strings.Contains(raw, "---TRANSACTION "+th.TrxID+", ACTIVE (PREPARED)"):
			th.TrxState = "PREPARED"
		case raw != "" && strings.Contains(raw, "---TRANSACTION "+th.TrxID+", "):
			th.TrxState = "RECOVERED"
		case anyXID:
			th.TrxState = "PREPARED (per XA RECOVER)"
		}
	}
}

// xidLiteral keeps MariaDB's FORMAT='SQL' literal ('xid1' or
// X'..',X'..',n) and writes MySQL's CONVERT XID hex (0x gtrid bqual) as
// X'gtrid',X'bqual',formatID.
func xidLiteral(data, formatID string, gtridLen, bqualLen int64) string {
	hex, ok := strings.CutPrefix(data, "0x")
	if !ok {
		return data
	}
	g := int(2 * gtridLen)
	b := int(2 * bqualLen)
	if g <= 0 || g+b > len(hex) {
		return "X'" + hex + "'"
	}
	s := "X'" + hex[:g] + "'"
	if b > 0 || formatID != "1" {
		s += ",X'" + hex[g:g+b] + "'"
	}
	if formatID != "1" && formatID != "" {
		s += "," + formatID
	}
	return s
}
