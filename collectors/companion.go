package collectors

import (
	"context"
	"database/sql"
	"time"
)

// The companion is a second sampling session, opened only while it pays
// (companionPolicy): on a server with thousands of connections MariaDB walks
// every one of them for SHOW GLOBAL STATUS and again for SHOW FULL
// PROCESSLIST (9-40 ms each at 5,000), and the protocol runs one statement
// at a time per session. With a companion the processlist is read on it
// while the sampling session reads the status, so the tick costs the slower
// of the two, not their sum (the fleet-cost work).
//
// It logs in as the sampling session does, with the same session timeouts,
// is hidden from the processlist and killed over the sampling session when
// left over, like the monitor's other sessions (serverLink), and takes the
// one slot the cap keeps for it (link_companion.go). In trouble the monitor
// goes back to one session at once: any error, timeout or slow read on
// either session closes the companion, cleanly when it is idle and the link
// answered, else as an orphan; none is opened again before afterTrouble
// healthy ticks (5 minutes at 1 s). So the only session a stall can catch
// besides those it caught without a companion is the companion, on the
// stall's first tick, and within the cap.
type companion struct {
	conn *sql.Conn
	id   int64
	// of is the sampling session it reads beside; a new one (reconnect,
	// new grants) gets a new companion, with the same privileges.
	of *session
}

// sideBySide is the live source's companion state.
type sideBySide struct {
	off    bool // LiveOptions.OneSession
	policy companionPolicy
	comp   *companion
	procs  *processlist
}

// openCompanion opens the companion within the cap; an open that failed
// after the login leaves an orphan, as the sampling session's does.
func (l *Live) openCompanion(ctx context.Context, now time.Time) error {
	if !l.link.reserveCompanion(now) {
		return errSessionCap
	}
	defer l.link.release()
	began := time.Now()
	conn, id, err := openBare(ctx, l.db, l.settings)
	if err != nil {
		orphansOfOpen(&l.link, &l.greeted, began, 0, id, err)
		return err
	}
	orphansOfOpen(&l.link, &l.greeted, began, id, 0, nil)
	l.link.setCompanion(id)
	l.side.comp = &companion{conn: conn, id: id, of: l.link.session()}
	return nil
}

// closeCompanion ends the companion: cleanly when idle on a link that
// answers, else left over, an orphan until the processlist shows it gone.
func (l *Live) closeCompanion(now time.Time, leftOver bool) {
	c := l.side.comp
	if c == nil {
		return
	}
	l.side.comp = nil
	if leftOver {
		discard(c.conn)
	} else {
		c.conn.Close()
	}
	l.link.endCompanion(now, leftOver)
}
