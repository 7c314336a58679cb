package collectors

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// statementDetailAfter is how long a statement must run before its
// performance_schema detail is worth a query.
const statementDetailAfter = time.Second

// statementDetailQuery reads what performance_schema knows of running
// statements: rows examined so far (updated while the statement runs) and
// whether the plan found no index, as sys.x$processlist does.
const statementDetailQuery = "SELECT t.PROCESSLIST_ID, s.ROWS_EXAMINED, s.NO_INDEX_USED" +
	" FROM performance_schema.events_statements_current s" +
	" JOIN performance_schema.threads t USING (THREAD_ID)" +
	" WHERE s.END_EVENT_ID IS NULL AND t.PROCESSLIST_COMMAND = 'Query'"

// addDetail adds what the rules need about long-running statements from the
// costlier sources, only when such statements exist: MariaDB/Percona
// information_schema columns and performance_schema's running statements.
// A source the server refuses is dropped for this connection. It returns how
// many on-disk temporary tables its information_schema read made.
func addDetail(ctx context.Context, sess *session, ps []snapshot.Process) (selfTmpDisk int, err error) {
	ids := longStatements(ps)
	if len(ids) == 0 {
		return 0, nil
	}
	if len(sess.Caps.ProcesslistDetail) > 0 {
		t, err := queryTable(ctx, sess.conn, infoSchemaDetailQuery(sess.Caps.ProcesslistDetail, ids))
		selfTmpDisk++ // materialised even when the read then fails
		if connectionLost(err) {
			return selfTmpDisk, err
		}
		if err != nil {
			sess.Caps.ProcesslistDetail = nil
		} else {
			mergeInfoSchemaDetail(ps, t)
		}
	}
	if sess.Caps.StatementsCurrent {
		t, err := queryTable(ctx, sess.conn, statementDetailQuery)
		if connectionLost(err) {
			return selfTmpDisk, err
		}
		sess.Caps.StatementsCurrent = err == nil
		if err == nil {
			mergeStatementDetail(ps, t)
		}
	}
	return selfTmpDisk, nil
}

// longStatements are the ids of statements worth the detail queries.
func longStatements(ps []snapshot.Process) []int64 {
	var ids []int64
	for _, p := range ps {
		if p.Command == "Query" && p.TimeMS >= statementDetailAfter.Milliseconds() && explainable(p.Info) {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// infoSchemaDetailQuery reads the detail columns of the given threads; the
// ids are formatted integers.
func infoSchemaDetailQuery(cols []string, ids []int64) string {
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = strconv.FormatInt(id, 10)
	}
	return "SELECT ID, " + strings.Join(cols, ", ") + " FROM information_schema.PROCESSLIST WHERE ID IN (" +
		strings.Join(list, ", ") + ")"
}

// mergeInfoSchemaDetail takes TIME_MS (finer than TIME) and the examined rows.
func mergeInfoSchemaDetail(ps []snapshot.Process, t *table) {
	idCol, msCol := t.col("ID"), t.col("TIME_MS")
	exCol := t.col("EXAMINED_ROWS")
	if exCol < 0 {
		exCol = t.col("ROWS_EXAMINED")
	}
	byID := make(map[int64][]sql.NullString, len(t.rows))
	for _, r := range t.rows {
		byID[parseInt(cell(r, idCol))] = r
	}
	for i := range ps {
		r, ok := byID[ps[i].ID]
		if !ok {
			continue
		}
		if msCol >= 0 && r[msCol].Valid {
			ps[i].TimeMS = int64(parseFloat(r[msCol].String))
		}
		if exCol >= 0 && r[exCol].Valid {
			ps[i].ExaminedRows = parseInt(r[exCol].String)
		}
	}
}

// mergeStatementDetail applies rows of statementDetailQuery to ps. A larger
// examined count wins: MariaDB's processlist counts only for UPDATE/DELETE.
func mergeStatementDetail(ps []snapshot.Process, t *table) {
	byID := make(map[int64][]string, len(t.rows))
	for _, r := range t.rows {
		byID[parseInt(cell(r, 0))] = []string{cell(r, 1), cell(r, 2)}
	}
	for i := range ps {
		d, ok := byID[ps[i].ID]
		if !ok {
			continue
		}
		if n := parseInt(d[0]); n > ps[i].ExaminedRows {
			ps[i].ExaminedRows = n
		}
		ps[i].NoIndexUsed = parseInt(d[1]) > 0
	}
}
