package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// innodbRows sets the ROW OPERATIONS queue line; shown=false is MariaDB 10.5+.
func innodbRows(inside, queue int64, shown bool) edit {
	return func(_ int, s *snapshot.Snapshot) {
		if s.InnoDB == nil {
			s.InnoDB = &snapshot.InnoDBStatus{}
		}
		s.InnoDB.Rows = snapshot.InnoDBRows{Present: true, QueriesInside: inside, QueriesInQueue: queue, QueueShown: shown}
	}
}

func TestInnoDBThreadQueue(t *testing.T) {
	runTimelines(t, IDInnoDBThreadQueue, ruleLogic(IDInnoDBThreadQueue), []timelineCase{
		{"queries in queue (MySQL 5.7/8.0)", series(4, innodbRows(8, 5, true), vars("innodb_thread_concurrency", "8")),
			"..WW"},
		{"empty queue", series(3, innodbRows(8, 0, true)), "..."},
		{"MariaDB 10.5+ prints no queue", series(3, innodbRows(0, 0, false)), "NNN"},
		{"no InnoDB status in the source", series(2), "NN"},
		{"InnoDB collector failed this tick", series(2, func(_ int, s *snapshot.Snapshot) {
			s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{snapshot.CollectorInnoDB: {Stale: true, Error: "timeout"}}
		}), ".."},
		{"clears", series(9, during(0, 3, innodbRows(8, 5, true)), during(3, 9, innodbRows(8, 0, true))), "..WWWWW.."},
	})
	f := lastFinding(t, ruleLogic(IDInnoDBThreadQueue), series(3, innodbRows(8, 5, true), vars("innodb_thread_concurrency", "8")),
		IDInnoDBThreadQueue)
	mustContain(t, f, "5 queries queue to enter InnoDB", "8 queries inside, 5 queries in queue",
		"innodb_thread_concurrency=8")
}
