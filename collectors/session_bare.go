package collectors

import (
	"context"
	"database/sql"
	"database/sql/driver"
)

// openBare takes a connection of its own from db, reads its id and sets its
// session timeouts: a session that only sends statements, without the
// sampling session's probe. On failure the connection is closed and the id
// is returned when the server had given one (that session may live on).
func openBare(ctx context.Context, db *sql.DB, settings []string) (*sql.Conn, int64, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, 0, err
	}
	var id int64
	if err := conn.QueryRowContext(ctx, tag+"SELECT CONNECTION_ID()").Scan(&id); err != nil {
		discard(conn)
		return nil, 0, err
	}
	if err := setSessionTimeouts(ctx, conn, settings); err != nil {
		discard(conn)
		return nil, id, err
	}
	return conn, id, nil
}

// discard closes conn and keeps the pool from reusing it: after a timeout
// its protocol state is unknown.
func discard(conn *sql.Conn) {
	conn.Raw(func(any) error { return driver.ErrBadConn })
	conn.Close()
}
