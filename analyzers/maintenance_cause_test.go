package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// optimizing is OPTIMIZE TABLE app.m in session 9, 7 s in and 45 % done
// (MariaDB's progress), beside a light application load.
func optimizing(i int, s *snapshot.Snapshot) {
	p := query(9, float64(4+i), "altering table", "OPTIMIZE TABLE app.m")
	p.Progress = 45
	s.Processlist = append(s.Processlist, p, query(20, 0, "Updating", "UPDATE app.acct SET n = n + 1 WHERE id = 3"))
}

// The redo flood of a rebuild: the checkpoint at the sync point, 38 MB of
// redo a second. The finding keeps its severity and names the rebuild first.
func TestRebuildNamedInTheFindingsItCauses(t *testing.T) {
	const mib = 1 << 20
	flood := func(i int, s *snapshot.Snapshot) {
		logSection(86*mib, 100*mib)(i, s)
		counter("Innodb_os_log_written", 1e9, 38*mib)(i, s)
	}
	runTimelines(t, IDCheckpointAgeHigh, DefaultConfig(), []timelineCase{
		{"severity is the effect's", series(3, flood, optimizing), "..C"},
	})
	f := lastFinding(t, DefaultConfig(), series(3, flood, optimizing), IDCheckpointAgeHigh)
	mustContain(t, f, "OPTIMIZE TABLE app.m (session 9) is rebuilding the table",
		"caused by OPTIMIZE TABLE app.m (session 9), which is writing redo at 38M/s",
		"it ends by itself in about 7.0 s (45 % done after 6.0 s)")
	if !strings.HasPrefix(f.Evidence[0], "caused by OPTIMIZE TABLE app.m") || f.Threads[0] != 9 {
		t.Errorf("rebuild not first: %v threads %v", f.Evidence[0], f.Threads)
	}
	// Without the rebuild, the finding is as before.
	f = lastFinding(t, DefaultConfig(), series(3, flood), IDCheckpointAgeHigh)
	if strings.Contains(f.Title, "rebuilding") || strings.Contains(strings.Join(f.Evidence, "\n"), "caused by") {
		t.Errorf("a rebuild named where none runs: %s %v", f.Title, f.Evidence)
	}
}

func TestRebuildsRunning(t *testing.T) {
	cases := []struct {
		q, state, want string
	}{
		{"OPTIMIZE TABLE app.m", "altering table", "OPTIMIZE TABLE app.m (session 1)"},
		{"optimize no_write_to_binlog table `app`.`m`", "", "OPTIMIZE TABLE app.m (session 1)"},
		{"ALTER TABLE m ADD COLUMN x INT, ALGORITHM=COPY", "copy to tmp table", "ALTER TABLE shop.m (session 1)"},
		{"CREATE INDEX k ON app.m (x)", "", "CREATE INDEX on app.m (session 1)"},
		{"ALTER TABLE app.m ADD COLUMN x INT", "Waiting for table metadata lock", ""},
		{"SELECT * FROM app.m", "Sending data", ""},
	}
	for _, c := range cases {
		p := query(1, 3, c.state, c.q)
		p.DB = "shop"
		w := newWindow(frames(series(1, procs(p))), nil, &Config{})
		rs := rebuildsRunning(w)
		got := ""
		if len(rs) > 0 {
			got = rs[0].name()
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.q, got, c.want)
		}
	}
}

// A rebuild's copy is a table of its own, not one of the internal temporary
// tables Created_tmp_disk_tables counts: an application's on-disk temporary
// tables beside an OPTIMIZE stay the application's.
func TestRebuildNotBlamedForTmpDiskTables(t *testing.T) {
	spill := counters(map[string]float64{tmpTables: 60, tmpDisk: 14})
	f := lastFinding(t, spillConfig(), series(5, spill, optimizing), IDTmpDiskTables)
	if strings.Contains(f.Title, "rebuilding") || strings.Contains(strings.Join(f.Evidence, "\n"), "caused by OPTIMIZE") {
		t.Errorf("the rebuild blamed for on-disk temporary tables: %s %v", f.Title, f.Evidence)
	}
}
