package collectors

import (
	"bytes"
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// processDecoder turns processlist rows into the data model straight from the
// driver's bytes. It remembers the previous tick's strings: from one second to
// the next most threads keep their user, host, db, command and state, and idle
// ones their statement, so a tick at 5,000 connections reuses those instead of
// allocating some 50,000 strings that all look like the last ones.
type processDecoder struct {
	names     map[string]string // user, host, db, command, state values seen
	infos     map[int64]string  // statement text by thread id, last tick
	nextInfos map[int64]string  // this tick's; the two maps swap, so neither is rebuilt per tick
}

// namesCap bounds the remembered names relative to the rows of a tick, so
// churning hosts (ip:port of short connections) cannot grow it without limit.
const namesCap = 4

// processColumns are the positions of the known columns in a result; -1 when
// absent. SHOW FULL PROCESSLIST and the tables spell them alike, up to case.
type processColumns struct {
	id, user, host, db, command, time, state, info, timeMS, examined, progress int
}

func locateProcessColumns(cols []string) processColumns {
	col := func(name string) int {
		for i, c := range cols {
			if strings.EqualFold(c, name) {
				return i
			}
		}
		return -1
	}
	c := processColumns{
		id: col("ID"), user: col("USER"), host: col("HOST"), db: col("DB"),
		command: col("COMMAND"), time: col("TIME"), state: col("STATE"),
		info: col("INFO"), timeMS: col("TIME_MS"), examined: col("EXAMINED_ROWS"),
		progress: col("PROGRESS"),
	}
	if c.examined < 0 {
		c.examined = col("ROWS_EXAMINED")
	}
	return c
}

// queryProcesses runs a processlist statement and decodes it row by row.
func (d *processDecoder) queryProcesses(ctx context.Context, q queryer, stmt string, sizeHint int) ([]snapshot.Process, error) {
	var c processColumns
	out := make([]snapshot.Process, 0, sizeHint)
	d.begin()
	err := eachRow(ctx, q, stmt, func(cols []string) { c = locateProcessColumns(cols) },
		func(raw []sql.RawBytes) { out = append(out, d.row(c, raw)) })
	d.end(len(out))
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decodeAll decodes rows already read, e.g. in tests; nil cells are NULL.
func (d *processDecoder) decodeAll(cols []string, rows [][]sql.RawBytes) []snapshot.Process {
	c := locateProcessColumns(cols)
	d.begin()
	out := make([]snapshot.Process, 0, len(rows))
	for _, r := range rows {
		out = append(out, d.row(c, r))
	}
	d.end(len(out))
	return out
}

func (d *processDecoder) begin() {
	if d.names == nil {
		d.names, d.infos, d.nextInfos = map[string]string{}, map[int64]string{}, map[int64]string{}
	}
	clear(d.nextInfos)
}

func (d *processDecoder) end(rows int) {
	d.infos, d.nextInfos = d.nextInfos, d.infos
	if len(d.names) > namesCap*rows+64 {
		clear(d.names)
	}
}

// row decodes one result row.
func (d *processDecoder) row(c processColumns, r []sql.RawBytes) snapshot.Process {
	p := snapshot.Process{
		ID:           leadingInt(at(r, c.id)),
		User:         d.name(at(r, c.user)),
		Host:         d.name(at(r, c.host)),
		DB:           d.name(at(r, c.db)),
		Command:      d.name(at(r, c.command)),
		TimeMS:       leadingInt(at(r, c.time)) * 1000,
		State:        d.name(at(r, c.state)),
		ExaminedRows: -1,
	}
	p.Info = d.info(p.ID, at(r, c.info))
	if ms := at(r, c.timeMS); ms != nil {
		p.TimeMS = leadingInt(ms)
	}
	if ex := at(r, c.examined); ex != nil {
		p.ExaminedRows = leadingInt(ex)
	}
	if pr := at(r, c.progress); len(pr) > 0 && !zeroDecimal(pr) {
		p.Progress, _ = strconv.ParseFloat(string(pr), 64)
	}
	return p
}

// name returns b as a string, shared with earlier rows and ticks.
func (d *processDecoder) name(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s, ok := d.names[string(b)]; ok {
		return s
	}
	s := string(b)
	d.names[s] = s
	return s
}

// info returns the statement text, shared with the same thread's last tick
// when it has not changed (a long query, an idle thread's last statement).
func (d *processDecoder) info(id int64, b []byte) string {
	if len(b) == 0 {
		return ""
	}
	s, ok := d.infos[id]
	if !ok || s != string(b) {
		s = string(b)
	}
	d.nextInfos[id] = s
	return s
}

// at is r[i], nil for NULL or a missing column (i < 0).
func at(r []sql.RawBytes, i int) []byte {
	if i < 0 || i >= len(r) {
		return nil
	}
	return r[i]
}

// leadingInt parses the integer part of a decimal such as "48211.532" or
// "-3"; anything else is 0.
func leadingInt(b []byte) int64 {
	b = bytes.TrimSpace(b)
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	var n int64
	for _, ch := range b {
		if ch < '0' || ch > '9' {
			break
		}
		n = n*10 + int64(ch-'0')
	}
	if neg {
		return -n
	}
	return n
}

// zeroDecimal reports "0", "0.000" and the like, MariaDB's PROGRESS of every
// thread that reports none.
func zeroDecimal(b []byte) bool {
	for _, ch := range b {
		if ch != '0' && ch != '.' {
			return false
		}
	}
	return true
}
