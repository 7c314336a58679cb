package parse

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// parseRows reads the ROW OPERATIONS section. The "queries inside InnoDB" line
// exists only where innodb_thread_concurrency admission is still implemented
// (gone in MariaDB 10.5+), hence QueueShown. MySQL 8 adds a second pair of
// lines for system rows; only the user-row pair is read.
func parseRows(r *snapshot.InnoDBRows, body string) {
	r.Present = true
	userRates := false // the next rate line belongs to the user-row counters
	for line := range lines(body) {
		switch {
		case strings.Contains(line, " queries inside InnoDB, "):
			inside, ok1 := leadingInt(line)
			queue, ok2 := intAfter(line, "InnoDB, ")
			if ok1 && ok2 {
				r.QueriesInside, r.QueriesInQueue, r.QueueShown = inside, queue, true
			}
		case strings.HasSuffix(line, " read views open inside InnoDB"):
			if v, ok := leadingInt(line); ok {
				r.ReadViewsOpen = v
			}
		case strings.HasPrefix(line, "Number of rows inserted "):
			setInt(&r.Inserted, line, "inserted ")
			setInt(&r.Updated, line, "updated ")
			setInt(&r.Deleted, line, "deleted ")
			setInt(&r.Read, line, "read ")
			userRates = true
		case userRates && strings.Contains(line, " inserts/s"):
			setFloatBefore(&r.InsertsPerSec, line, " inserts/s")
			setFloatBefore(&r.UpdatesPerSec, line, " updates/s")
			setFloatBefore(&r.DeletesPerSec, line, " deletes/s")
			setFloatBefore(&r.ReadsPerSec, line, " reads/s")
			userRates = false
		default:
			userRates = false
		}
	}
}
