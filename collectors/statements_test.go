package collectors

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestMergeStatementDetail(t *testing.T) {
	ps := []snapshot.Process{
		{ID: 1, ExaminedRows: -1},   // MySQL: nothing known before
		{ID: 2, ExaminedRows: 5000}, // MariaDB's own count is larger
		{ID: 3, ExaminedRows: 10},   // not in performance_schema
	}
	detail := tableOf([]string{"PROCESSLIST_ID", "ROWS_EXAMINED", "NO_INDEX_USED"},
		[]string{"1", "42000", "1"}, []string{"2", "4000", "0"}, []string{"9", "7", "1"})
	mergeStatementDetail(ps, detail)
	want := []snapshot.Process{{ID: 1, ExaminedRows: 42000, NoIndexUsed: true}, {ID: 2, ExaminedRows: 5000}, {ID: 3, ExaminedRows: 10}}
	for i := range want {
		if ps[i] != want[i] {
			t.Errorf("thread %d: got %+v, want %+v", want[i].ID, ps[i], want[i])
		}
	}
}

func TestLongStatements(t *testing.T) {
	ps := []snapshot.Process{
		{ID: 1, Command: "Query", TimeMS: 1500, Info: "UPDATE a SET x = 1"},
		{ID: 2, Command: "Query", TimeMS: 900, Info: "UPDATE a SET x = 1"},
		{ID: 3, Command: "Sleep", TimeMS: 90000},
		{ID: 4, Command: "Query", TimeMS: 5000, Info: "ALTER TABLE a ADD c INT"},
		{ID: 5, Command: "Query", TimeMS: 1000, Info: "SELECT * FROM a"},
	}
	if got := longStatements(ps); fmt.Sprint(got) != "[1 5]" {
		t.Errorf("got %v, want [1 5]", got)
	}
}

func TestInfoSchemaDetail(t *testing.T) {
	q := infoSchemaDetailQuery([]string{"TIME_MS", "EXAMINED_ROWS"}, []int64{7, 12})
	if want := "SELECT ID, TIME_MS, EXAMINED_ROWS FROM information_schema.PROCESSLIST WHERE ID IN (7, 12)"; q != want {
		t.Errorf("query %q", q)
	}
	ps := []snapshot.Process{{ID: 7, TimeMS: 3000, ExaminedRows: -1}, {ID: 12, TimeMS: 2000, ExaminedRows: -1}, {ID: 13, TimeMS: 1000, ExaminedRows: -1}}
	mergeInfoSchemaDetail(ps, tableOf([]string{"ID", "TIME_MS", "ROWS_EXAMINED"},
		[]string{"7", "3456.789", "1200"}, []string{"12", "\x00", "\x00"}))
	want := []snapshot.Process{{ID: 7, TimeMS: 3456, ExaminedRows: 1200}, {ID: 12, TimeMS: 2000, ExaminedRows: -1}, {ID: 13, TimeMS: 1000, ExaminedRows: -1}}
	for i := range want {
		if ps[i] != want[i] {
			t.Errorf("got %+v, want %+v", ps[i], want[i])
		}
	}
}
