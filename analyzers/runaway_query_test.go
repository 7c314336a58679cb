package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// runningFor is a statement row whose Time grows by a second per snapshot
// from secs.
func runningFor(id int64, secs float64, state, info string, examinedPerSec int64) edit {
	return func(i int, s *snapshot.Snapshot) {
		p := query(id, secs+float64(i), state, info)
		if examinedPerSec > 0 {
			p.ExaminedRows = examinedPerSec * int64(secs+float64(i))
		}
		s.Processlist = append(s.Processlist, p)
	}
}

const crossJoin = "SELECT COUNT(*) FROM shop.a x, shop.a y, shop.a z WHERE x.v + y.v = z.v"

func TestRunawayQuery(t *testing.T) {
	runTimelines(t, IDRunawayQuery, DefaultConfig(), []timelineCase{
		{"a cross join burning a core", series(6, runningFor(12, 3, "Sending data", crossJoin, 0),
			threadsUsing(threadUse{conn: 12, cpuPct: 98})), "...WWW"},
		{"running a minute is critical", series(4, runningFor(12, 70, "Sending data", crossJoin, 0),
			threadsUsing(threadUse{conn: 12, cpuPct: 98})), "..CC"},
		{"a long sleep burns nothing", series(6, runningFor(12, 30, "User sleep", "SELECT SLEEP(60)", 0),
			threadsUsing(threadUse{conn: 13, cpuPct: 5})), "......"},
		{"a lock wait burns nothing", series(6, runningFor(12, 30, "Updating", "UPDATE shop.t SET v=1 WHERE id=1", 0),
			threadsUsing(threadUse{conn: 12, cpuPct: 1})), "......"},
		{"a busy statement in its first seconds is just running", series(4,
			runningFor(12, 0, "Sending data", crossJoin, 0), threadsUsing(threadUse{conn: 12, cpuPct: 98})), "...."},
		{"rows read fast where the server counts them (remote server)", series(5, remote,
			runningFor(14, 8, "Sending data", "DELETE FROM shop.t WHERE c = 7", 400000)), ".WWWW"},
		{"a slow trickle of rows is not a runaway", series(5, remote,
			runningFor(14, 8, "Sending to client", "SELECT * FROM shop.t", 200)), "....."},
		{"an ALTER TABLE is maintenance: info", series(6, runningFor(15, 30, "copy to tmp table",
			"ALTER TABLE shop.t ADD INDEX (c)", 0), threadsUsing(threadUse{conn: 15, cpuPct: 90})), "..iiii"},
	})
	f := lastFinding(t, DefaultConfig(), series(6,
		runningFor(12, 40, "Sending data", crossJoin, 0),
		runningFor(13, 38, "Sending data", "UPDATE shop.a x JOIN shop.a y ON x.v + y.v > 0 SET x.v = x.v + 1", 0),
		threadsUsing(threadUse{conn: 12, cpuPct: 66}, threadUse{conn: 13, cpuPct: 64}),
		trx(snapshot.InnoDBTrx{ID: "77", ThreadID: 13, UndoEntries: 3579}),
	), IDRunawayQuery)
	mustContain(t, f, "2 runaway statements; longest: thread 12, 45 s",
		`thread 12 app@10.0.0.12 db shop, 45 s in "Sending data": CPU 66 % of a core, rows examined not counted`,
		"select count(*) from shop.a x, shop.a y, shop.a z where x.v + y.v = z.v",
		"thread 13 app@10.0.0.12 db shop, 43 s", "CPU 64 % of a core",
		"a KILL rolls back 3,579 row changes", "KILL QUERY 12; KILL QUERY 13", "fix its plan")
	if f.Severity != snapshot.Warning || len(f.Threads) != 2 || f.Threads[0] != 12 {
		t.Errorf("severity %v threads %v", f.Severity, f.Threads)
	}
	f = lastFinding(t, DefaultConfig(), series(4, runningFor(12, 40, "Sending data",
		"SET STATEMENT max_statement_time=45 FOR "+crossJoin, 0), threadsUsing(threadUse{conn: 12, cpuPct: 99})),
		IDRunawayQuery)
	mustContain(t, f, "runaway SELECT: thread 12 running 43 s at 99 % of a core")
}
