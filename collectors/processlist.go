package collectors

import (
	"context"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// noProcessPrivilege is shown when the user sees only its own threads.
const noProcessPrivilege = "only your own threads are visible: needs the PROCESS privilege"

// Processlist reads the server's threads, hiding the monitor's own.
type Processlist struct {
	link *serverLink
}

// Name implements Collector.
func (p *Processlist) Name() string { return NameProcesslist }

// Collect implements Collector.
func (p *Processlist) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := p.link.session()
	if sess == nil {
		return errNotConnected
	}
	t, err := queryTable(ctx, sess.conn, processlistQuery(sess.Caps))
	if err != nil {
		return err
	}
	s.Processlist = withoutThreads(decodeProcesslist(t), p.link.ownIDs())
	own, err := addDetail(ctx, sess, s.Processlist)
	s.SelfTmpDiskTables += own
	if err != nil {
		return err
	}
	if !sess.Caps.Process {
		setUnavailable(s, NameProcesslist, noProcessPrivilege)
	}
	return nil
}

// processlistQuery is the statement for the source the server offers.
func processlistQuery(c Capabilities) string {
	if c.Processlist == SourcePerfSchema {
		return "SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO FROM performance_schema.processlist"
	}
	return "SHOW FULL PROCESSLIST"
}

// processColumns are the positions of the known columns in a result; -1 when
// absent. SHOW FULL PROCESSLIST and the tables spell them alike, up to case.
type processColumns struct {
	id, user, host, db, command, time, state, info, timeMS, examined, progress int
}

func locateProcessColumns(t *table) processColumns {
	c := processColumns{
		id: t.col("ID"), user: t.col("USER"), host: t.col("HOST"), db: t.col("DB"),
		command: t.col("COMMAND"), time: t.col("TIME"), state: t.col("STATE"),
		info: t.col("INFO"), timeMS: t.col("TIME_MS"), examined: t.col("EXAMINED_ROWS"),
		progress: t.col("PROGRESS"),
	}
	if c.examined < 0 {
		c.examined = t.col("ROWS_EXAMINED")
	}
	return c
}

// decodeProcesslist turns a processlist result into rows of the data model.
func decodeProcesslist(t *table) []snapshot.Process {
	c := locateProcessColumns(t)
	out := make([]snapshot.Process, 0, len(t.rows))
	for _, r := range t.rows {
		p := snapshot.Process{
			ID:           parseInt(cell(r, c.id)),
			User:         cell(r, c.user),
			Host:         cell(r, c.host),
			DB:           cell(r, c.db),
			Command:      cell(r, c.command),
			TimeMS:       parseInt(cell(r, c.time)) * 1000,
			State:        cell(r, c.state),
			Info:         cell(r, c.info),
			ExaminedRows: -1,
		}
		if c.timeMS >= 0 && r[c.timeMS].Valid {
			p.TimeMS = int64(parseFloat(r[c.timeMS].String))
		}
		if c.examined >= 0 && r[c.examined].Valid {
			p.ExaminedRows = parseInt(r[c.examined].String)
		}
		if c.progress >= 0 {
			p.Progress = parseFloat(cell(r, c.progress))
		}
		out = append(out, p)
	}
	return out
}

// withoutThreads drops the given thread ids (the monitor's own connections).
func withoutThreads(ps []snapshot.Process, hide []int64) []snapshot.Process {
	if len(hide) == 0 {
		return ps
	}
	kept := ps[:0]
	for _, p := range ps {
		if !containsID(hide, p.ID) {
			kept = append(kept, p)
		}
	}
	return kept
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func parseInt(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return int64(parseFloat(s))
	}
	return n
}

func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0
	}
	return f
}
