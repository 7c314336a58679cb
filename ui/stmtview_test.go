package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

func digestFrame() *snapshot.Frame {
	f := incidentFrame()
	f.Snapshot.Statements = &snapshot.Statements{At: t0, Interval: 5, Changed: 3, Digests: []snapshot.Digest{
		{Schema: "shop", Digest: "aaa", Text: "SELECT * FROM `items` WHERE `id` = ?", Calls: 5000, LatencyS: 1,
			RowsExamined: 5000, RowsSent: 5000, Sample: "SELECT * FROM items WHERE id = 7"},
		{Schema: "shop", Digest: "bbb", Text: "UPDATE `b` SET `qty` = `qty` - ? WHERE `c` = ?", Calls: 10, LatencyS: 4,
			RowsExamined: 20_000_000, RowsAffected: 10, NoIndexUsed: 10},
		{Schema: "shop", Digest: "ccc", Text: "SELECT `day` , SUM ( `total` ) FROM `orders` GROUP BY `day`", Calls: 50,
			LatencyS: 0.5, TmpDiskTables: 50},
	}}
	return f
}

// stmtActions is fakeActions plus EXPLAIN of a statement by text.
type stmtActions struct {
	fakeActions
	explained []string
}

func (a *stmtActions) ExplainStatement(_ context.Context, schema, q string) ([]snapshot.ExplainRow, error) {
	a.explained = append(a.explained, schema+": "+q)
	return []snapshot.ExplainRow{explainRow("1", "SIMPLE", "items", "const", 1, "")}, nil
}

// rowOrder is the order the fingerprints appear on screen.
func rowOrder(screen string, fps ...string) []int {
	var out []int
	for _, fp := range fps {
		out = append(out, strings.Index(screen, fp))
	}
	return out
}

func TestStatementsViewSortsByEachColumn(t *testing.T) {
	d := New(Options{})
	d.Update(digestFrame())
	press(d, 'S')
	scr := screenOf(d, 160, 40)
	mustContain(t, scr, "performance_schema digests, 5.0 s", "▼lat s/s", "calls/s", "exam/s", "tmpdsk/s", "noidx/s")
	pos := rowOrder(scr, "UPDATE `b`", "SELECT * FROM `items`", "SELECT `day`")
	if !(pos[0] < pos[1] && pos[1] < pos[2]) {
		t.Fatalf("not by latency per second:\n%s", scr)
	}
	press(d, '<') // calls/s
	scr = screenOf(d, 160, 40)
	pos = rowOrder(scr, "SELECT * FROM `items`", "SELECT `day`", "UPDATE `b`")
	if !(pos[0] < pos[1] && pos[1] < pos[2]) || !strings.Contains(scr, "▼calls/s") {
		t.Fatalf("not by calls:\n%s", scr)
	}
	press(d, 'r')
	scr = screenOf(d, 160, 40)
	if pos = rowOrder(scr, "UPDATE `b`", "SELECT * FROM `items`"); pos[0] > pos[1] {
		t.Fatalf("reverse did not reverse:\n%s", scr)
	}
	for range stmtCols {
		press(d, '>')
	}
	mustContain(t, screenOf(d, 160, 40), "▲fingerprint")
	press(d, 'S')
	if d.modal != nil {
		t.Error("S did not close the view")
	}
}

func TestStatementsViewExplainsTheSample(t *testing.T) {
	acts := &stmtActions{}
	d := New(Options{Actions: acts})
	d.Update(digestFrame())
	press(d, 'S')
	press(d, '<') // calls/s: the SELECT with a sample first
	pressKey(d, tcell.KeyHome)
	press(d, 'e')
	if len(acts.explained) != 1 || acts.explained[0] != "shop: SELECT * FROM items WHERE id = 7" {
		t.Fatalf("explained %v", acts.explained)
	}
	mustContain(t, screenOf(d, 160, 40), "EXPLAIN of the sample", "const")
	press(d, 'q')
	mustContain(t, screenOf(d, 160, 40), "▼calls/s") // back in the view
}

func TestStatementsViewWithoutDigestsSaysSoAndSamples(t *testing.T) {
	d := New(Options{})
	for i := range 3 {
		f := incidentFrame()
		f.Snapshot.Time = t0.Add(time.Duration(i) * time.Second)
		f.Snapshot.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{srcStatements: {Unavailable: "performance_schema is off: add `performance_schema=ON` under [mysqld] in my.cnf"}}
		d.Update(f)
	}
	press(d, 'S')
	scr := screenOf(d, 160, 40)
	mustContain(t, scr, "sampled from the processlist", "performance_schema=ON", "update b set qty", "lower bounds")
}

func TestStatementsViewFitsEightyColumns(t *testing.T) {
	d := New(Options{})
	d.Update(digestFrame())
	press(d, 'S')
	scr := screenOf(d, 80, 24)
	mustContain(t, scr, "calls/s", "UPDATE `b`")
}
