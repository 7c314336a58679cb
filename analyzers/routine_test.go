package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The statements are those each tool sent, as a general log on MariaDB
// 10.11 recorded them (mariadb-dump 10.11, mariabackup 10.11, Percona
// Toolkit 3.x); gh-ost's and xtrabackup's are from their sources.
func TestClassifyRoutineStatement(t *testing.T) {
	cases := []struct {
		q        string
		tool     string
		doing    string
		strength int
	}{
		// mariadb-dump --single-transaction
		{"SELECT /*!40001 SQL_NO_CACHE */ `id`, `k`, `c`, `pad` FROM `sbtest3`", toolDump, "dumping sbtest3", markerTool},
		{"START TRANSACTION /*!40100 WITH CONSISTENT SNAPSHOT */", toolDump, "starting its consistent snapshot", markerTool},
		{"/*!40100 SET @@SQL_MODE='' */", toolDump, "starting its consistent snapshot", markerTool},
		{"FLUSH /*!40101 LOCAL */ TABLES", toolDump, "starting its consistent snapshot", markerTool},
		{"SELECT TRIGGER_NAME FROM INFORMATION_SCHEMA.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = 'items'",
			toolDump, "reading information_schema", markerLike},
		{"select column_name, extra, generation_expression, data_type from information_schema.columns where table_schema=database() and table_name='items' order by ordinal_position",
			toolDump, "reading information_schema", markerLike},
		{"show create table `items`", toolDump, "reading table definitions", markerLike},
		{"SHOW FUNCTION STATUS WHERE `Db` = ?", toolDump, "reading routine definitions", markerLike},
		{"SHOW PACKAGE BODY STATUS WHERE Db = 'app'", toolDump, "reading routine definitions", markerLike},
		{"SAVEPOINT sp", toolDump, "", markerLike},
		// mariabackup --backup
		{"BACKUP STAGE BLOCK_COMMIT", toolBackup, "BACKUP STAGE BLOCK_COMMIT", markerTool},
		{"BACKUP LOCK `mysql`.`proc`", toolBackup, "BACKUP LOCK `mysql`.`proc`", markerTool},
		{"SET SESSION wait_timeout=2147483, max_statement_time=0", toolBackup, "copying", markerTool},
		{"SELECT COUNT(*) FROM information_schema.plugins WHERE plugin_name='rocksdb'", toolBackup, "copying", markerTool},
		{"INSERT INTO mysql.mariadb_backup_history(uuid, name) VALUES ('x', 'y')", toolBackup, "recording its history", markerTool},
		{"FLUSH TABLES WITH READ LOCK", toolBackup, "holding FLUSH TABLES WITH READ LOCK", markerLike},
		// xtrabackup
		{"LOCK TABLES FOR BACKUP", toolXtraBackup, "taking its backup locks", markerTool},
		{"SELECT server_uuid, local, replication, storage_engines FROM performance_schema.log_status", toolXtraBackup,
			"reading the log position", markerTool},
		// pt-online-schema-change
		{"INSERT LOW_PRIORITY IGNORE INTO `shop`.`_items_new` (`id`, `k`) SELECT `id`, `k` FROM `shop`.`items` FORCE INDEX(`PRIMARY`) WHERE ((`id` >= '1')) AND ((`id` <= '1000')) LOCK IN SHARE MODE /*pt-online-schema-change 17929 copy nibble*/",
			toolPTOSC, "copying rows into shop._items_new", markerTool},
		{"CREATE TRIGGER `pt_osc_shop_items_del` AFTER DELETE ON `shop`.`items` FOR EACH ROW DELETE IGNORE FROM `shop`.`_items_new`",
			toolPTOSC, "creating its triggers", markerTool},
		{"ANALYZE TABLE `shop`.`_items_new` /* pt-online-schema-change */", toolPTOSC, "analyzing the new table", markerTool},
		{"SELECT /*!40001 SQL_NO_CACHE */ `id` FROM `shop`.`items` FORCE INDEX(`PRIMARY`) ORDER BY `id` LIMIT 1 /*first lower boundary*/",
			toolPercona, "reading shop.items in chunks", markerTool},
		{"SET @@SQL_QUOTE_SHOW_CREATE = 1/*!40101, @@SQL_MODE='NO_AUTO_VALUE_ON_ZERO,STRICT_TRANS_TABLES'*/", toolPercona, "", markerTool},
		{"INSERT LOW_PRIORITY IGNORE INTO `shop`.`_items_new` (`id`) SELECT `id` FROM `shop`.`items`", toolPTOSC,
			"copying rows into shop._items_new", markerLike},
		// gh-ost
		{"insert /* gh-ost `shop`.`items` */ ignore into `shop`.`_items_gho` (`id`, `k`) (select `id`, `k` from `shop`.`items` force index (`PRIMARY`) where (((`id` > ?)) and ((`id` < ?))) lock in share mode)",
			toolGhost, "copying rows into _items_gho", markerTool},
		{"replace /* gh-ost `shop`.`_items_ghc` */ into `shop`.`_items_ghc` (id, hint, value) values (NULLIF(?, 0), ?, ?)",
			toolGhost, "", markerTool},
		// pt-table-checksum
		{"REPLACE INTO `percona`.`checksums` (db, tbl, chunk) SELECT 'shop', 'items', '1', COUNT(*) AS cnt, COALESCE(LOWER(CONV(BIT_XOR(CAST(CRC32(CONCAT_WS('#', `id`)) AS UNSIGNED)), 10, 16)), 0) AS crc FROM `shop`.`items` FORCE INDEX(`PRIMARY`) /*checksum chunk*/",
			toolChecksum, "checksumming shop.items", markerTool},
		// pt-archiver
		{"SELECT /*!40001 SQL_NO_CACHE */ `id`,`k`,`v`,`pad` FROM `shop`.`items` FORCE INDEX(`PRIMARY`) WHERE (id < 500) ORDER BY `id` LIMIT 100",
			toolArchiver, "reading shop.items in chunks", markerTool},
		{"SELECT 'pt-archiver keepalive'", toolArchiver, "archiving", markerTool},
		// Maintenance
		{"OPTIMIZE TABLE shop.items", toolMaintenance, "OPTIMIZE TABLE shop.items", markerTool},
		{"ANALYZE NO_WRITE_TO_BINLOG TABLE `shop`.`items`", toolMaintenance, "ANALYZE TABLE shop.items", markerTool},
		// A restore: a dump file read by the mariadb client, as it sends the
		// file's statements (mysqldump joins the rows on one line; mariadb-dump
		// 10.11, whose file the busy-normal family loads, puts each on a line).
		{"INSERT INTO `sbtest4` VALUES (1,24851,'83868641912-28773972837','67847967377-48000963322'),(2,2491,'38014276128','66219652484')",
			toolRestore, "loading sbtest4", markerTool},
		{"INSERT INTO `sbtest4` VALUES\n(1,11728,'c4ca4238a0b9','8a0b'),\n(2,38105,'c81e728d9d4c','9d4c')", toolRestore,
			"loading sbtest4", markerTool},
		{"INSERT INTO `shop`.`items` VALUES (1,'a'),(2,'b')", toolRestore, "loading shop.items", markerTool},
		{"/*!40000 ALTER TABLE `sbtest4` DISABLE KEYS */", toolRestore, "loading sbtest4", markerTool},
		{"/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */", toolRestore, "loading", markerTool},
		{"/*!40101 SET @saved_cs_client     = @@character_set_client */", toolRestore, "loading", markerTool},
		// Applications
		// Batched rows as drivers and ORMs write them (a column list, ", ("
		// between rows), one row without a list, and the plain SETs and
		// table locks a migration sends are not a restore.
		{"INSERT INTO `orders` (`id`, `total`) VALUES (1, 9.5), (2, 3.0)", "", "", markerNone},
		{"insert into `orders` values (1,9.5),(2,3.0)", "", "", markerNone},
		{"INSERT INTO `sbtest1` VALUES (1,2,'c','p')", "", "", markerNone},
		{"SET FOREIGN_KEY_CHECKS=0", "", "", markerNone},
		{"LOCK TABLES `orders` WRITE", "", "", markerNone},
		{"SELECT c FROM sbtest1 WHERE id=5012", "", "", markerNone},
		{"UPDATE shop.items SET v = v + 1 WHERE id = 7", "", "", markerNone},
		{"SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 1 AND 100 ORDER BY c", "", "", markerNone},
		{"INSERT INTO shop.orders_new (id) VALUES (1)", "", "", markerNone},
		{"", "", "", markerNone},
	}
	for _, c := range cases {
		got := classifyRoutineStatement(c.q)
		if got.tool != c.tool || got.doing != c.doing || got.strength != c.strength {
			t.Errorf("%.70s…: got %q/%q/%d, want %q/%q/%d", c.q, got.tool, got.doing, got.strength, c.tool, c.doing, c.strength)
		}
	}
}

func TestRoutineSessionsOfTheWindow(t *testing.T) {
	dumpSel := query(42, 3, "Sending data", "SELECT /*!40001 SQL_NO_CACHE */ `id`, `k` FROM `sbtest3`")
	dumpSel.User, dumpSel.Host = "root", "localhost"
	dumpIS := query(42, 0, "Filling schema table", "SELECT TRIGGER_NAME FROM INFORMATION_SCHEMA.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = DATABASE()")
	appIS := query(7, 0, "Filling schema table", "SELECT TRIGGER_NAME FROM INFORMATION_SCHEMA.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = DATABASE()")
	bk := query(50, 0, "", "SHOW CREATE TABLE `shop`.`items`")
	bk.User = "mariabackup"
	// A name is a hint: an account named after the job, idle or writing, is
	// not routine work.
	idleBk := sleeping(51, "backup_api")
	writingBk := query(52, 1, "Update", "INSERT INTO shop.orders VALUES (1)")
	writingBk.User = "nightly_dump"
	snaps := series(6,
		during(0, 2, procs(dumpSel)),              // the dump is seen dumping a table …
		during(2, 4, procs(dumpIS)),               // … then reading information_schema …
		during(4, 6, procs(sleeping(42, "root"))), // … then asleep between statements
		procs(appIS, bk, idleBk, writingBk))
	fs := frames(snaps)
	e := NewEngine(DefaultConfig())
	for i := range fs {
		e.Evaluate(fs[:i+1])
	}
	w := newWindow(fs, e.counts, &e.cfg)
	r := w.routine()
	if s := r.byID(42); s == nil || s.Tool != toolDump || s.Doing != "reading information_schema" || !s.Now {
		t.Errorf("the dump session: %+v", s)
	}
	if s := r.byID(7); s != nil {
		t.Errorf("an application reading information_schema is named routine: %+v", s)
	}
	if s := r.byID(50); s == nil || s.Tool != "a backup account 'mariabackup'" {
		t.Errorf("the backup account's session: %+v", s)
	}
	for _, id := range []int64{51, 52} {
		if s := r.byID(id); s != nil {
			t.Errorf("an account named after a backup, idle or writing, is named routine: %+v", s)
		}
	}
	if got, want := r.names(5), "mariadb-dump (session 42, reading information_schema); a backup account 'mariabackup' (session 50, reading table definitions)"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
	if got := r.tools(); got != "mariadb-dump and a backup account 'mariabackup'" {
		t.Errorf("tools %q", got)
	}
	// A generic name gives way to the tool's own.
	bkStage := query(50, 0, "", "BACKUP STAGE BLOCK_COMMIT")
	bkStage.User = "mariabackup"
	osc := query(60, 0, "Sending data", "SELECT /*!40001 SQL_NO_CACHE */ `id` FROM `shop`.`items` FORCE INDEX(`PRIMARY`) "+
		"ORDER BY `id` LIMIT 1 /*first lower boundary*/")
	oscCopy := query(60, 1, "Sending data", "INSERT LOW_PRIORITY IGNORE INTO `shop`.`_items_new` (`id`) SELECT `id` "+
		"FROM `shop`.`items` LOCK IN SHARE MODE /*pt-online-schema-change 1 copy nibble*/")
	named := frames(series(3, during(0, 1, procs(sleeping(50, "mariabackup"), osc)), during(1, 3, procs(bkStage, oscCopy))))
	r = newWindow(named, map[int]procCounts{}, &e.cfg).routine()
	if s := r.byID(50); s == nil || s.Tool != toolBackup || s.Doing != "BACKUP STAGE BLOCK_COMMIT" {
		t.Errorf("the backup account's session: %+v", s)
	}
	if s := r.byID(60); s == nil || s.Tool != toolPTOSC || s.Doing != "copying rows into shop._items_new" {
		t.Errorf("the schema change's session: %+v", s)
	}
	// Sessions that ended within the window are counted, not listed.
	gone := frames(series(4, during(0, 1, dumpSession), during(1, 2, func(_ int, s *snapshot.Snapshot) {
		p := query(13, 1, "Sending data", "SELECT /*!40001 SQL_NO_CACHE */ `id` FROM `sbtest1`")
		s.Processlist = append(s.Processlist, p)
	}), during(3, 4, func(_ int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(14, 1, "Sending data", "SELECT /*!40001 SQL_NO_CACHE */ `id` FROM `sbtest2`"))
	})))
	if got, want := newWindow(gone, map[int]procCounts{}, &e.cfg).routine().names(5),
		"mariadb-dump (session 14, dumping sbtest2); 2 earlier sessions of mariadb-dump"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
	// A frame without the dump's marker in the window names nothing.
	quiet := frames(series(3, procs(appIS, query(8, 1, "Sending data", "SELECT 1"))))
	if r := newWindow(quiet, map[int]procCounts{}, &e.cfg).routine(); r.any() {
		t.Errorf("routine work found in an application's frames: %s", r.names(5))
	}
	_ = snapshot.Info
}

func TestRoutineWriters(t *testing.T) {
	copying := query(10, 1, "Sending data", "INSERT LOW_PRIORITY IGNORE INTO `shop`.`_items_new` (`id`) SELECT `id` FROM "+
		"`shop`.`items` FORCE INDEX(`PRIMARY`) WHERE ((`id` >= '1')) LOCK IN SHARE MODE /*pt-online-schema-change 1 copy nibble*/")
	fs := frames(series(2, procs(copying), dumpSession))
	w := newWindow(fs, map[int]procCounts{}, &Config{SightingWindow: 15})
	want := "routine work writing in the window: pt-online-schema-change (session 10, copying rows into shop._items_new); " +
		"it ends by itself when its run ends"
	if got := routineWriters(w); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	fs = frames(series(2, dumpSession))
	if got := routineWriters(newWindow(fs, map[int]procCounts{}, &Config{SightingWindow: 15})); got != "" {
		t.Errorf("a dump named as a writer: %q", got)
	}
}

// BenchmarkRoutineIn reads a loaded frame's 5,000 connections, once per frame.
func BenchmarkRoutineIn(b *testing.B) {
	list := busySnapshot(1).Processlist
	b.ReportAllocs()
	for range b.N {
		if len(routineIn(list)) != 0 {
			b.Fatal("routine work in an application's frame")
		}
	}
}

// TestRestoreNamedWithItsSchema: a restore's INSERTs name their table
// without the schema; the session's default schema is the one loaded.
func TestRestoreNamedWithItsSchema(t *testing.T) {
	p := query(77, 2, "Update", "INSERT INTO `sbtest4` VALUES (1,2,'c','p'),(2,3,'c','p')")
	p.User, p.Host, p.DB = "root", "localhost", "restored"
	if s := classifyRoutine(&p); s.tool != toolRestore || s.doing != "loading restored.sbtest4" || s.strength != markerTool {
		t.Errorf("the restore's session: %+v", s)
	}
}
