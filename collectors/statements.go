package collectors

import (
	"context"
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

// addStatementDetail fills ExaminedRows and NoIndexUsed from
// performance_schema, only when some statement has run long enough to matter.
func addStatementDetail(ctx context.Context, q queryer, ps []snapshot.Process) error {
	if !anyLongStatement(ps) {
		return nil
	}
	t, err := queryTable(ctx, q, statementDetailQuery)
	if err != nil {
		return err
	}
	mergeStatementDetail(ps, t)
	return nil
}

func anyLongStatement(ps []snapshot.Process) bool {
	for _, p := range ps {
		if p.Command == "Query" && p.TimeMS >= statementDetailAfter.Milliseconds() && explainable(p.Info) {
			return true
		}
	}
	return false
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
