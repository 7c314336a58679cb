package collectors

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Kill sends KILL QUERY (or KILL CONNECTION) to the thread t names, through
// the kill gate: on the action connection, right before the KILL, the
// thread's row and the server's start are read again, and nothing is sent
// unless they are the session and statement the dialog showed. A refusal is
// a *snapshot.KillRefused whose reason says what changed. The id is
// formatted as an integer, never spliced from text.
func (l *Live) Kill(ctx context.Context, t snapshot.KillTarget, connection bool) error {
	if t.ID > 0 && containsID(l.link.ownIDs(), t.ID) {
		return refused(t, connection, "it is the monitor's own connection")
	}
	if why := killFrameVerdict(t, time.Now()); why != "" {
		return refused(t, connection, why)
	}
	// Read and KILL run in one call on one connection: when the connection
	// is replaced (the server restarted under it), the call is run again
	// whole, and the read sees the new server.
	return l.actions.do(ctx, func(c *sql.Conn) error {
		row, err := readKillRow(ctx, c, t.ID)
		if err != nil {
			return fmt.Errorf("kill: could not read thread %d again before the KILL, nothing sent: %w", t.ID, err)
		}
		if why := killVerdict(t, row, time.Now()); why != "" {
			return refused(t, connection, why)
		}
		return killStatement(ctx, c, t.ID, connection)
	})
}

// refused is the gate's answer: what was not sent and why.
func refused(t snapshot.KillTarget, connection bool, why string) error {
	what := "KILL QUERY"
	if connection {
		what = "KILL CONNECTION"
	}
	return &snapshot.KillRefused{Reason: fmt.Sprintf("%s %d not sent: %s. Nothing killed.", what, t.ID, why)}
}

// readKillRow reads the server's start and thread id's row. The start
// comes from Uptime, by the monitor's clock, as a frame's does.
func readKillRow(ctx context.Context, c *sql.Conn, id int64) (killRow, error) {
	var row killRow
	var name string
	up := int64(-1)
	err := c.QueryRowContext(ctx, tag+"SHOW GLOBAL STATUS LIKE 'Uptime'").Scan(&name, &up)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return row, err
	}
	if up >= 0 { // 0 in a server's first second
		row.ServerStart = time.Now().Add(-time.Duration(up) * time.Second).Truncate(time.Second)
	}
	var dec processDecoder
	rows, err := dec.queryProcesses(ctx, c, fmt.Sprintf("SELECT * FROM information_schema.PROCESSLIST WHERE ID = %d", id), 1)
	if err != nil {
		return row, err
	}
	at := time.Now()
	for _, p := range rows {
		if p.ID == id {
			row.Found, row.Process = true, p
			row.Started = at.Add(-time.Duration(p.TimeMS) * time.Millisecond)
		}
	}
	return row, nil
}
