package testdb

import (
	"context"
	"database/sql"
	"strconv"
	"testing"
)

// SessionsOf lists the ids of user's connections, read with db (an account
// that sees every session). It returns the error rather than failing t: a
// test watches sessions from a goroutine of its own.
func SessionsOf(db *sql.DB, user string) ([]int64, error) {
	rows, err := db.Query("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?", user)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// KillSessionsOf ends every connection of user, as a DBA's KILL would; a
// session that ends on its own meanwhile is no error.
func (s *Server) KillSessionsOf(t testing.TB, user string) {
	t.Helper()
	db := s.DB(t)
	ids, err := SessionsOf(db, user)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 {
		t.Logf("testdb: user %s had no connection to kill", user)
	}
	for _, id := range ids {
		// KILL takes no placeholder; id is an integer read from the server.
		if _, err := db.Exec("KILL CONNECTION " + strconv.FormatInt(id, 10)); err != nil {
			t.Logf("testdb: KILL CONNECTION %d: %v", id, err) // it may have gone already
		}
	}
}

// RunUntilEnd runs query on db in a goroutine until the test ends (its
// context is cancelled then, and the test waits for it): a statement a
// monitor should see running, whatever it returns.
func RunUntilEnd(t testing.TB, db *sql.DB, query string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = db.ExecContext(ctx, query)
	}()
	t.Cleanup(func() { cancel(); <-done })
}
