package collectors

import (
	"context"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// The keys of the table an applier searches, read from a real server: a
// table with no key, one with a primary key, one with a unique key only,
// and a name the server does not know. An applier in find_row on each is
// faked in the processlist (a replica is not needed to read the keys).
func TestAppliedTablesKeysFromTheServer(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE DATABASE app",
		"CREATE TABLE app.nopk (grp INT, v INT, KEY (grp))",
		"CREATE TABLE app.pk (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE app.uk (code INT NOT NULL, v INT, UNIQUE KEY (code))")
	l := newLive(t, connopt.Options{Socket: srv.Socket, User: "root", PasswordSet: true}, time.Second, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := l.Next(ctx); err != nil {
		t.Fatal(err)
	}
	s := &snapshot.Snapshot{Time: time.Now()}
	for i, q := range []string{"update nopk set v = 1 where grp = 7", "update app.pk set v = 1 where v = 2",
		"delete from app.uk where v = 3", "update app.gone set v = 1"} {
		s.Processlist = append(s.Processlist, snapshot.Process{ID: int64(10 + i), User: "system user",
			Command: "Slave_SQL", DB: "app", State: "Update_rows_log_event::find_row(-1)", Info: q})
	}
	c := &appliedTables{link: &l.link}
	if err := c.Collect(ctx, s); err != nil {
		t.Fatal(err)
	}
	want := []snapshot.AppliedTable{{Name: "app.nopk", Indexes: 1}, {Name: "app.pk", PrimaryKey: true, Indexes: 1},
		{Name: "app.uk", UniqueKey: true, Indexes: 1}}
	if len(s.AppliedTables) != len(want) {
		t.Fatalf("got %+v, want %+v", s.AppliedTables, want)
	}
	for i := range want {
		if s.AppliedTables[i] != want[i] {
			t.Errorf("table %d: %+v, want %+v", i, s.AppliedTables[i], want[i])
		}
	}
	// Nothing searches: nothing is sent.
	quiet := &snapshot.Snapshot{Time: time.Now(), Processlist: []snapshot.Process{{ID: 3, Command: "Query",
		State: "Update_rows_log_event::find_row(-1)", Info: "update app.nopk set v = 2"}}}
	if err := (&appliedTables{link: &l.link}).Collect(ctx, quiet); err != nil || quiet.AppliedTables != nil {
		t.Errorf("a client thread read as an applier: %+v %v", quiet.AppliedTables, err)
	}
}
