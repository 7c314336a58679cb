package analyzers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// nopkApplier is the incident: the SQL thread in find_row, applying an
// UPDATE to app.nopk, 53 s behind.
func nopkApplier(i int, s *snapshot.Snapshot) {
	replica("Seconds_Behind_Master", fmt.Sprint(50+i), "Slave_SQL_Running_State", "Update_rows_log_event::find_row(-1)")(i, s)
	s.Processlist = append(s.Processlist, snapshot.Process{ID: 12, User: "system user", Command: "Slave_SQL",
		State: "Update_rows_log_event::find_row(-1)", TimeMS: int64(50+i) * 1000,
		Info: "update app.nopk set v = v + 1 where grp = 7"})
}

func appliedTable(t snapshot.AppliedTable) edit {
	return func(_ int, s *snapshot.Snapshot) { s.AppliedTables = append(s.AppliedTables, t) }
}

func TestReplicationLagNamesATableWithoutPrimaryKey(t *testing.T) {
	noKey := appliedTable(snapshot.AppliedTable{Name: "app.nopk", Indexes: 1})
	f := lastFinding(t, DefaultConfig(), series(3, nopkApplier, noKey), IDReplicationLag)
	mustContain(t, f, "app.nopk has no primary key", "its SQL thread 12 (Update_rows_log_event::find_row(-1)) applies",
		"every row event scans the table", "Add a primary key to app.nopk")
	// A keyed table: the search is not the cause, and the advice stays general.
	f = lastFinding(t, DefaultConfig(), series(3, nopkApplier,
		appliedTable(snapshot.AppliedTable{Name: "app.nopk", PrimaryKey: true, Indexes: 1})), IDReplicationLag)
	mustContain(t, f, "app.nopk has a primary or unique key")
	if strings.Contains(f.Title, "no primary key") || strings.Contains(f.Advice, "Add a primary key") {
		t.Errorf("a keyed table named as the cause: %s / %s", f.Title, f.Advice)
	}
	// Without the keys (a capture): the state is named as the likely cause.
	f = lastFinding(t, DefaultConfig(), series(3, nopkApplier), IDReplicationLag)
	mustContain(t, f, "the SQL thread searches rows (Update_rows_log_event::find_row(-1)): a table with no primary key")
	if strings.Contains(f.Title, "no primary key") {
		t.Errorf("unproven cause in the title: %s", f.Title)
	}
}

func TestAppliedTableNames(t *testing.T) {
	p := snapshot.Process{DB: "app", Info: "update nopk set v = 1 where grp = 7"}
	if got := snapshot.AppliedTableNames(&p); len(got) != 1 || got[0] != "app.nopk" {
		t.Errorf("tables %v", got)
	}
}
