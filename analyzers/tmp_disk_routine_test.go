package analyzers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// mariadb-dump's information_schema reads as MariaDB's digests print them.
const dumpTriggersDigest = "SELECT `TRIGGER_NAME` FROM `INFORMATION_SCHEMA` . `TRIGGERS` WHERE `EVENT_OBJECT_SCHEMA` = " +
	"DATABASE ( ) AND `EVENT_OBJECT_TABLE` = ?"

func TestTmpDiskTablesOfRoutineWork(t *testing.T) {
	tmp := func(all, disk float64) edit {
		return counters(map[string]float64{tmpTables: all, tmpDisk: disk})
	}
	appSpill := procs(query(9, 3, "Copying to tmp table on disk", "SELECT a, COUNT(*) FROM t GROUP BY a"))
	isRead := digestOf(dumpTriggersDigest, 100, 0, 0, 0, 0)
	isRead.TmpDiskTables = 150 // 30/s
	spill := digestOf("SELECT `a` , COUNT ( * ) FROM `t` GROUP BY `a`", 100, 2000, 200, 0, 0)
	spill.TmpDiskTables = 100 // 20/s
	// The dump's session, first seen dumping rows, then reading
	// information_schema: seen making on-disk temporary tables.
	dumpReads := []edit{during(0, 1, dumpSession), during(1, 99, dumpISRead)}
	runTimelines(t, IDTmpDiskTables, spillConfig(), []timelineCase{
		// The routine-work review: a dump back to back under a light load, performance_schema off.
		{"a dump's information_schema reads", series(6, append(dumpReads, tmp(110, 30))...), "...iii"},
		{"a dump not seen making them: its share is unknown, at info", series(6, tmp(110, 30), dumpSession), "...iii"},
		{"the same rate without a dump in sight", series(6, tmp(110, 30)), "...CCC"},
		// Only evidence puts them on routine work, and a guess is never critical.
		{"an application statement spilling beside the dump", series(6, tmp(110, 30), dumpSession, appSpill), "...WWW"},
		{"an application statement spilling beside the dump's reads", series(6, append(dumpReads, tmp(110, 30), appSpill)...), "...WWW"},
		{"an archiver in the window is no evidence", series(6, tmp(110, 30), archiverSession), "...WWW"},
		{"a dump seen a few frames ago is still in the window", series(8, tmp(110, 30), during(0, 2, dumpSession)), "...iiiii"},
		// With digests the split is measured.
		{"digests put them on the dump", series(6, tmp(110, 30), dumpSession, digests(isRead)), "...iii"},
		{"digests split the dump's from the application's", series(6, tmp(150, 50), dumpSession, digests(isRead, spill)),
			"...WWW"},
	})
	dumpSel := digestOf("SELECT SQL_NO_CACHE `id` , `k` FROM `sbtest1`", 9, 0, 0, 0, 0)
	f := lastFinding(t, spillConfig(), series(6, tmp(110, 30), dumpSession, digests(dumpSel, isRead)), IDTmpDiskTables)
	mustContain(t, f, "100 % of them by performance_schema digests", "digest: 30 disk temporary tables/s from 20 calls/s of "+
		"SELECT `TRIGGER_NAME` FROM `INFORMATION_SCHEMA`")
	for _, ev := range f.Evidence {
		if strings.Contains(ev, "sbtest1") {
			t.Errorf("a digest that made no disk table is listed: %s", ev)
		}
	}
	f = lastFinding(t, spillConfig(), series(6, append(dumpReads, tmp(110, 30))...), IDTmpDiskTables)
	mustContain(t, f, "30 temporary tables/s on disk are mariadb-dump's (routine work)",
		"routine work: mariadb-dump (session 12, reading information_schema)", "inferred: performance_schema digests are not read",
		"mariadb-dump (session 12) was seen reading information_schema", "MariaDB materialises information_schema reads")
	if f.Severity != snapshot.Info || strings.Contains(f.Advice, "Index") {
		t.Errorf("%s: %s", f.Severity, f.Advice)
	}
	// Seen only dumping rows: nothing shows who made them.
	f = lastFinding(t, spillConfig(), series(6, tmp(110, 30), dumpSession), IDTmpDiskTables)
	mustContain(t, f, "30 temporary tables/s on disk while mariadb-dump runs (its share unknown)",
		"how many are mariadb-dump's is unknown: performance_schema digests are not read, and no session was seen making them",
		"routine work: mariadb-dump (session 12, dumping sbtest3)", "SUM_CREATED_TMP_DISK_TABLES")
	if f.Severity != snapshot.Info || strings.Contains(f.Title, "are mariadb-dump's") {
		t.Errorf("%s: %s", f.Severity, f.Title)
	}
	f = lastFinding(t, spillConfig(), series(6, tmp(110, 30), archiverSession), IDTmpDiskTables)
	mustContain(t, f, "30 temporary tables/s on disk (28 % of all; routine work's share unknown)",
		"routine work ran in the window (pt-archiver (session 14, reading shop.items in chunks)): its share of them is "+
			"unknown (performance_schema digests are not read, and no session was seen making them in the window), "+
			"so this is not raised to critical")
	f = lastFinding(t, spillConfig(), series(6, tmp(150, 50), dumpSession, digests(isRead, spill)), IDTmpDiskTables)
	mustContain(t, f, "temporary tables/s on disk", "of them are routine work's, 60 % of them by performance_schema digests",
		"Index the GROUP BY/ORDER BY columns of SELECT `a` , COUNT ( * ) FROM `t` GROUP BY `a`")
	for _, ev := range f.Evidence {
		if strings.Contains(ev, "caused by") && strings.Contains(ev, "TRIGGERS") {
			t.Errorf("the dump's digest is named as a cause: %s", ev)
		}
	}
}

// dumpISRead is mariadb-dump's connection 12 reading a table's triggers.
func dumpISRead(_ int, s *snapshot.Snapshot) {
	p := query(12, 0, "Filling schema table", "SELECT TRIGGER_NAME FROM INFORMATION_SCHEMA.TRIGGERS "+
		"WHERE EVENT_OBJECT_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = 'sbtest3'")
	p.User, p.Host = "root", "localhost"
	s.Processlist = append(s.Processlist, p)
}

// archiverSession is pt-archiver (connection 14) reading a table in chunks.
func archiverSession(_ int, s *snapshot.Snapshot) {
	p := query(14, 1, "Sending data", "SELECT /*!40001 SQL_NO_CACHE */ `id`,`k` FROM `shop`.`items` "+
		"FORCE INDEX(`PRIMARY`) WHERE (id < 500) ORDER BY `id` LIMIT 100")
	p.User, p.Host = "archiver", "localhost"
	s.Processlist = append(s.Processlist, p)
}

func TestTmpDiskTablesConfigurationCheck(t *testing.T) {
	upDays := func(d int) edit {
		return func(i int, s *snapshot.Snapshot) { s.Status["Uptime"] = fmt.Sprint(d*86400 + i) }
	}
	totals := func(all, disk string) edit { return status(tmpTables, all, tmpDisk, disk) }
	runTimelines(t, IDTmpDiskTables, spillConfig(), []timelineCase{
		{"12 % since start-up, up 2 days", series(4, upDays(2), totals("100000", "12000")), "...i"},
		{"4 % since start-up", series(4, upDays(2), totals("100000", "4000")), "...."},
		{"up an hour: too young to judge", series(4, totals("100000", "12000")), "...."},
		{"too few temporary tables", series(4, upDays(2), totals("500", "100")), "...."},
	})
	f := lastFinding(t, spillConfig(), series(4, upDays(2), totals("100000", "12000")), IDTmpDiskTables)
	mustContain(t, f, "12 % of temporary tables since start-up went to disk (configuration check)",
		"12,000 of 100,000 temporary tables went to disk (12.0 %")
}
