package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestPreparedStmtLimit(t *testing.T) {
	leak := func(base, perSec float64) edit {
		return func(i int, s *snapshot.Snapshot) {
			s.Status[psCount] = fmt.Sprint(base + perSec*float64(i))
			s.Status[psPrepare] = fmt.Sprint(1000 + (perSec+5)*float64(i))
			s.Status[psClose] = fmt.Sprint(1000 + 5*float64(i))
		}
	}
	limit := vars("max_prepared_stmt_count", "1000")
	runTimelines(t, IDPreparedStmtLimit, DefaultConfig(), []timelineCase{
		{"leaking towards the limit", series(8, leak(720, 40), limit), "..WWWWWC"},
		{"a steady pool's statements", series(4, leak(700, 0), limit), "...."},
		{"prepared statements disabled", series(2, leak(0, 0), vars("max_prepared_stmt_count", "0")), ".."},
		{"no limit reported", series(2, leak(0, 0)), "NN"},
		{"not reported", series(2), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(40, leak(600, 10), limit), IDPreparedStmtLimit)
	mustContain(t, f, "990 of max_prepared_stmt_count 1000", "prepared 15/s, closed 5.0/s this interval: 10/s left open",
		"grew by 390 in 39 s (10/s): the limit is reached in about 1.0 s", "DEALLOCATE PREPARE")
	f = lastFinding(t, DefaultConfig(), series(3, leak(1000, 0), limit, vars("performance_schema", "OFF")),
		IDPreparedStmtLimit)
	mustContain(t, f, "max_prepared_stmt_count (1000) reached: every new PREPARE fails with error 1461",
		"performance_schema is off")
	owners := func(_ int, s *snapshot.Snapshot) {
		s.PreparedOwners = []snapshot.PreparedOwner{{ThreadID: 42, User: "app", Host: "10.0.0.9:5123", Count: 990,
			Sample: "SELECT * FROM orders WHERE id = ?"}}
	}
	f = lastFinding(t, DefaultConfig(), series(3, leak(1000, 0), limit, owners), IDPreparedStmtLimit)
	mustContain(t, f, "thread 42 app@10.0.0.9 holds 990 prepared statements, e.g. select * from orders where id = ?")
	if len(f.Threads) != 1 || f.Threads[0] != 42 {
		t.Errorf("threads %v, want [42]", f.Threads)
	}
}
