package importers

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Captures as DBAs save them by hand, written here in each layout the mysql
// client and the tools print.

// writeCapture writes files (name -> text) into a new directory.
func writeCapture(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// importOne imports path and returns its only session.
func importOne(t *testing.T, path string, wantFormat Format) *Session {
	t.Helper()
	c, err := Import(path, Options{Location: time.UTC, Start: at("12:00:00")})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != wantFormat || len(c.Sessions) != 1 {
		t.Fatalf("format %s with %d sessions, want %s with 1", c.Format, len(c.Sessions), wantFormat)
	}
	return &c.Sessions[0]
}

// statusTSV is `mysql -B -e 'SHOW GLOBAL STATUS'` output.
func statusTSV(header bool, uptime, questions string) string {
	text := "Aborted_clients\t0\nQuestions\t" + questions + "\nThreads_connected\t5\nUptime\t" + uptime + "\nVersion_x\tON\n"
	if header {
		text = "Variable_name\tValue\n" + text
	}
	return text
}

// Several SHOW GLOBAL STATUS tables in one file are as many samples, placed
// apart by Uptime: two are enough for rates.
func TestStatusTablesInOneFile(t *testing.T) {
	dir := writeCapture(t, map[string]string{"status.log": statusTSV(true, "100", "1000") + statusTSV(true, "110", "1500")})
	s := importOne(t, filepath.Join(dir, "status.log"), FormatStatusTable)
	if len(s.Snapshots) != 2 || !s.Approximate {
		t.Fatalf("%d snapshots, approximate %v", len(s.Snapshots), s.Approximate)
	}
	r := snapshot.Delta(s.Snapshots[0], s.Snapshots[1])
	if r == nil || r.Interval != 10 || r.Status["Questions"] != 50 {
		t.Errorf("rates %+v", r)
	}
	if !strings.Contains(strings.Join(s.Missing, ","), "no processlist") {
		t.Errorf("missing = %v", s.Missing)
	}
}

// A pair of files, each one headerless table, are one timeline.
func TestStatusTablePair(t *testing.T) {
	dir := writeCapture(t, map[string]string{
		"mysql-status-001.txt": statusTSV(false, "7732", "100"),
		"mysql-status-002.txt": statusTSV(false, "7737", "200"),
	})
	s := importOne(t, dir, FormatStatusTable)
	if len(s.Snapshots) != 2 || s.Snapshots[1].Time.Sub(s.Snapshots[0].Time) != 5*time.Second {
		t.Fatalf("%d snapshots", len(s.Snapshots))
	}
	if note := strings.Join(s.Notes, "\n"); !strings.Contains(note, "mysql-status-002.txt by Uptime after mysql-status-001.txt") {
		t.Errorf("notes %q do not say how the second file was placed", note)
	}
}

// pt-mysql-summary prints its first and its deferred sample side by side.
func TestStatusSideBySide(t *testing.T) {
	text := "Aborted_clients 0 0\nAborted_connects 0 0\nBytes_received 197237 199000\nQuestions 4239 4281\nSsl_cipher  \n" +
		"Threads_connected 5 5\nUptime 94521 94532\nUptime_since_flush_status 94521 94532\nwsrep_provider_vendor Codership Oy Codership Oy\n"
	dir := writeCapture(t, map[string]string{"mysql-status-defer": text})
	s := importOne(t, filepath.Join(dir, "mysql-status-defer"), FormatStatusTable)
	if len(s.Snapshots) != 2 || s.Problems.Count != 0 {
		t.Fatalf("%d snapshots, problems %+v", len(s.Snapshots), s.Problems)
	}
	if got := s.Snapshots[1].Status["wsrep_provider_vendor"]; got != "Codership Oy" {
		t.Errorf("text value with spaces = %q", got)
	}
	if r := snapshot.Delta(s.Snapshots[0], s.Snapshots[1]); r.Interval != 11 || r.Status["Questions"] != 42.0/11 {
		t.Errorf("rates %+v", r)
	}
}

// One processlist file in each of the client's layouts.
func TestProcesslistLayouts(t *testing.T) {
	cases := map[string]string{
		"boxed": "+----+------+------+------+---------+------+----------+----------+\n" +
			"| Id | User | Host | db   | Command | Time | State    | Info     |\n" +
			"+----+------+------+------+---------+------+----------+----------+\n" +
			"| 21 | app  | h:1  | shop | Query   | 30   | updating | UPDATE t |\n" +
			"| 22 | app  | h:2  | shop | Sleep   | 3    |          | NULL     |\n" +
			"+----+------+------+------+---------+------+----------+----------+\n",
		"tab-separated": "Id\tUser\tHost\tdb\tCommand\tTime\tState\tInfo\n" +
			"21\tapp\th:1\tshop\tQuery\t30\tupdating\tUPDATE t\n22\tapp\th:2\tshop\tSleep\t3\t\tNULL\n",
		"tab-separated, no header (mysql -N)": "21\tapp\th:1\tshop\tQuery\t30\tupdating\tUPDATE t\n" +
			"22\tapp\th:2\tshop\tSleep\t3\t\tNULL\n",
		`\G cut from a longer output, from " 2. row"`: " *************************** 2. row ***************************\n" +
			"      Id: 21\n    User: app\n    Host: h:1\n      db: shop\n Command: Query\n    Time: 30\n   State: updating\n    Info: UPDATE t\n" +
			" *************************** 3. row ***************************\n" +
			"      Id: 22\n    User: app\n    Host: h:2\n      db: shop\n Command: Sleep\n    Time: 3\n   State: \n    Info: NULL\n\n",
	}
	for layout, text := range cases {
		t.Run(layout, func(t *testing.T) {
			dir := writeCapture(t, map[string]string{"pl.txt": text})
			s := importOne(t, filepath.Join(dir, "pl.txt"), FormatProcesslist)
			if len(s.Snapshots) != 1 || s.Problems.Count != 0 {
				t.Fatalf("%d snapshots, problems %+v", len(s.Snapshots), s.Problems)
			}
			pl := s.Snapshots[0].Processlist
			if len(pl) != 2 || pl[0].ID != 21 || pl[0].Info != "UPDATE t" || pl[0].TimeMS != 30000 || pl[1].Info != "" || pl[1].State != "" {
				t.Errorf("processlist %+v", pl)
			}
		})
	}
}

// A \G processlist whose line breaks were lost gets them back from its padded
// column names, and says so; one that cannot is refused with the reason:
// never one empty frame.
func TestProcesslistLostNewlines(t *testing.T) {
	row := "*************************** %d. row ***************************           Id: 689004         User: app" +
		"         Host: h:48542           db: shop      Command: Sleep         Time: 9        State:          Info: NULL"
	text := "TS 1520256297.002113337 2018-03-05 13:24:57"
	for i := 1; i <= 60; i++ {
		text += fmt.Sprintf(row, i)
	}
	dir := writeCapture(t, map[string]string{
		"2018_03_05_13_24_55-processlist.sample": text,
		"2018_03_05_13_24_55-processlist":        "TS 1520256297.0 x\n*************************** 1. row ***************************\n  Id: 1\nCommand: Sleep\n",
	})
	s := importOne(t, filepath.Join(dir, "2018_03_05_13_24_55-processlist.sample"), FormatProcesslist)
	if len(s.Snapshots) != 1 || len(s.Snapshots[0].Processlist) != 60 || s.Problems.Count != 0 || s.Approximate {
		t.Fatalf("%d snapshots, problems %+v", len(s.Snapshots), s.Problems)
	}
	if p := s.Snapshots[0].Processlist[59]; p.ID != 689004 || p.Host != "h:48542" || p.State != "" || p.Command != "Sleep" {
		t.Errorf("row 60 = %+v", p)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "line breaks were lost: they were put back") {
		t.Errorf("notes %q", s.Notes)
	}
	// beside its collection's own -processlist it is a copy, named as not read
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Skipped, "\n"); !strings.Contains(got, "processlist.sample: processlist not named as a part") {
		t.Errorf("skipped = %q", got)
	}
	// one that cannot be put back is refused with the reason
	broken := strings.ReplaceAll(text, "Id:", "Xx:")
	dir = writeCapture(t, map[string]string{"flat.txt": broken})
	if _, err := Import(filepath.Join(dir, "flat.txt"), Options{}); err == nil || !strings.Contains(err.Error(), "could not be put back") {
		t.Errorf("unrestorable: %v", err)
	}
}

func diskstats(reads, writes int) string {
	return fmt.Sprintf("   8       0 sda %d 0 %d 10 %d 0 %d 20 0 30 40\n", reads, reads*8, writes, writes*8)
}

// /proc/diskstats alone: TS-stamped copies (pt-diskstats' samples, pt-stalk's
// -diskstats) on their own clock, a bare copy as one sample.
func TestDiskstatsAlone(t *testing.T) {
	stamped := "TS 1796126400.0 2026-12-01 12:00:00\n" + diskstats(100, 200) + "TS 1796126401.0 2026-12-01 12:00:01\n" + diskstats(150, 260)
	dir := writeCapture(t, map[string]string{"stamped.txt": stamped, "bare.txt": "   1       0 ram0 0 0 0 0 0 0 0 0 0 0 0\n" + diskstats(5, 5)})
	s := importOne(t, filepath.Join(dir, "stamped.txt"), FormatDiskstats)
	if len(s.Snapshots) != 2 || s.Approximate || !s.Snapshots[0].Time.Equal(at("12:00:00")) {
		t.Fatalf("%d snapshots from %v, approximate %v", len(s.Snapshots), s.Start(), s.Approximate)
	}
	if d := s.Snapshots[1].Host.Disks; len(d) != 1 || d[0].Reads != 150 || d[0].Writes != 260 {
		t.Errorf("disks %+v", d)
	}
	s = importOne(t, filepath.Join(dir, "bare.txt"), FormatDiskstats)
	if len(s.Snapshots) != 1 || len(s.Snapshots[0].Host.Disks) != 1 { // ram0 did no I/O
		t.Errorf("bare: %d snapshots", len(s.Snapshots))
	}
}

// pt-stalk's -diskstats beside -vmstat (no -procstat) is joined to it, not
// dropped; vmstat's first row (averages since boot) is no sample.
func TestPtStalkDiskstatsBesideVmstat(t *testing.T) {
	vmstat := "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n" +
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n" +
		" 9  0      0 100000   1000  20000    0    0  1000  1000  500  500 50  5 45  0  0\n" +
		" 1  0      0 100000   1000  20000    0    0     0    10  100  200 10  1 89  0  0\n" +
		" 2  0      0 100000   1000  20000    0    0     0    10  100  200 10  1 89  0  0\n"
	dir := writeCapture(t, map[string]string{
		"2026_12_01_12_00_00-vmstat":    vmstat,
		"2026_12_01_12_00_00-diskstats": "TS 1796126401.0 x\n" + diskstats(10, 10) + "TS 1796126402.0 x\n" + diskstats(20, 30),
	})
	s := importOne(t, dir, FormatPtStalk)
	if len(s.Snapshots) != 2 || s.Snapshots[0].Host.ProcsRunning != 1 {
		t.Fatalf("%d snapshots, first r %d: the since-boot row counted", len(s.Snapshots), s.Snapshots[0].Host.ProcsRunning)
	}
	if d := s.Snapshots[1].Host.Disks; len(d) != 1 || d[0].Writes != 30 {
		t.Errorf("disks at 12:00:02 = %+v", d)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "diskstats were joined to the vmstat samples") {
		t.Errorf("notes %q", s.Notes)
	}
}

// A collection whose every part read carries TS stamps is not approximate,
// and the note says so.
func TestPtStalkStampedIsExact(t *testing.T) {
	pl := "TS 1796126400.0 2026-12-01 12:00:00\n*************************** 1. row ***************************\n" +
		"     Id: 1\nCommand: Sleep\n   Info: NULL\n\nTS 1796126401.0 2026-12-01 12:00:01\n" +
		"*************************** 1. row ***************************\n     Id: 2\nCommand: Sleep\n   Info: NULL\n"
	dir := writeCapture(t, map[string]string{"2026_12_01_12_00_00-processlist": pl})
	s := importOne(t, dir, FormatPtStalk)
	if len(s.Snapshots) != 2 || s.Approximate || s.Snapshots[0].Approximate {
		t.Fatalf("%d snapshots, approximate %v", len(s.Snapshots), s.Approximate)
	}
	if note := strings.Join(s.Notes, "\n"); strings.Contains(note, "carry no clock") || !strings.Contains(note, "own clock") {
		t.Errorf("notes %q", note)
	}
	if info := s.Snapshots[0].Processlist[0].Info; info != "" {
		t.Errorf("Info: NULL then a blank line read as %q", info)
	}
}

// innodbStatus is a small monitor output taken at hms.
func innodbStatus(hms string, poolPages int) string {
	return "=====================================\n2026-12-01 " + hms + " 0x7f10 INNODB MONITOR OUTPUT\n" +
		"=====================================\nPer second averages calculated from the last 5 seconds\n" +
		"----------------------\nBUFFER POOL AND MEMORY\n----------------------\n" +
		"Buffer pool size   " + strconv.Itoa(poolPages) + "\nFree buffers       10\n" +
		"----------------------------\nEND OF INNODB MONITOR OUTPUT\n============================\n"
}

// `mysql -e 'SHOW ENGINE INNODB STATUS' > file`: the whole output on one line,
// its line breaks escaped.
func TestInnoDBBatchEscaped(t *testing.T) {
	one := "Type\tName\tStatus\nInnoDB\t\t" + strings.ReplaceAll(innodbStatus("12:00:05", 1000), "\n", `\n`) + "\n"
	dir := writeCapture(t, map[string]string{"is.txt": one + strings.Replace(one, "Type\tName\tStatus\n", "", 1)})
	s := importOne(t, filepath.Join(dir, "is.txt"), FormatInnoDBText)
	if len(s.Snapshots) != 1 || !s.Snapshots[0].Time.Equal(at("12:00:05")) || s.Snapshots[0].InnoDB.BufferPool.SizePages != 1000 {
		t.Fatalf("%d snapshots from %v", len(s.Snapshots), s.Start())
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "read once") {
		t.Errorf("the second copy of the same output was not told: %q", s.Notes)
	}
}

// A LATEST DETECTED DEADLOCK fragment is placed at its deadlock's time, even
// when MySQL 5.1 glued "TOO DEEP OR LONG SEARCH" to it.
func TestInnoDBDeadlockFragment(t *testing.T) {
	text := "\n------------------------\nLATEST DETECTED DEADLOCK\n------------------------\n" +
		"130624 17:39:24TOO DEEP OR LONG SEARCH IN THE LOCK TABLE WAITS-FOR GRAPH, WE WILL ROLL BACK FOLLOWING TRANSACTION \n\n" +
		"*** TRANSACTION:\nTRANSACTION 3BF88F886, ACTIVE 0 sec setting auto-inc lock\n"
	dir := writeCapture(t, map[string]string{"deadlock.txt": text})
	s := importOne(t, filepath.Join(dir, "deadlock.txt"), FormatInnoDBText)
	if want := time.Date(2013, 6, 24, 17, 39, 24, 0, time.UTC); len(s.Snapshots) != 1 || !s.Start().Equal(want) {
		t.Fatalf("%d snapshots at %v", len(s.Snapshots), s.Start())
	}
}

// A pt-mysql-summary --save-samples directory is one collection: status and
// its deferred copy give rates, InnoDB status and processlist stand beside
// them, variables name the server, the rest is named as not read.
func TestPtSummaryDirectory(t *testing.T) {
	dir := "testdata/kinds/pt-summary"
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatPtSummary || len(c.Sessions) != 1 {
		t.Fatalf("format %s, %d sessions", c.Format, len(c.Sessions))
	}
	s := c.Sessions[0]
	// the InnoDB output, 2 s before the first status sample, is a frame of
	// its own; it and the processlist stand beside the status samples
	if len(s.Snapshots) != 3 || s.Snapshots[0].InnoDB == nil {
		t.Fatalf("%d snapshots", len(s.Snapshots))
	}
	first, second := s.Snapshots[1], s.Snapshots[2]
	if second.Time.Sub(first.Time) != 11*time.Second || first.InnoDB == nil || len(first.Processlist) != 1 {
		t.Errorf("first %v innodb %v %d threads, second %v", first.Time, first.InnoDB != nil, len(first.Processlist), second.Time)
	}
	if first.Server.Flavor != snapshot.FlavorMariaDB || first.Variables["max_connections"] != "151" {
		t.Errorf("server %+v", first.Server)
	}
	skipped := strings.Join(c.Skipped, "\n")
	if !strings.Contains(skipped, "mysqldump: pt-mysql-summary's schema dump") || !strings.Contains(skipped, "mysql-slave: empty file") {
		t.Errorf("skipped = %q", skipped)
	}
}

// A pile of files in one directory is one timeline: clocks where the files
// have them, order and neighbours' times where not, and every sample a frame.
func TestPileTimeline(t *testing.T) {
	vmstat := " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n" +
		" 9  0      0 100000   1000  20000    0    0  1000  1000  500  500 50  5 45  0  0\n" +
		" 1  0      0 100000   1000  20000    0    0     0    10  100  200 10  1 89  0  0\n" +
		" 2  0      0 100000   1000  20000    0    0     0    10  100  200 10  1 89  0  0\n"
	dir := writeCapture(t, map[string]string{
		"a-innodb.txt": innodbStatus("12:00:00", 800),
		"b-status.txt": statusTSV(true, "50", "100"),
		"c-vmstat.txt": "procs\n" + vmstat,
		"d-procs.txt":  "TS 1796126430.0 2026-12-01 12:00:30\n*************************** 1. row ***************************\n     Id: 9\nCommand: Query\n   Info: SELECT 2\n",
		"e-status.txt": statusTSV(false, "90", "900"),
		"notes.txt":    "restarted the app at noon\n",
	})
	if err := os.Mkdir(filepath.Join(dir, "older"), 0o700); err != nil {
		t.Fatal(err)
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	if c.Format != FormatFiles || !s.Approximate {
		t.Fatalf("format %s, approximate %v", c.Format, s.Approximate)
	}
	times := map[string]*snapshot.Snapshot{}
	for _, sn := range s.Snapshots {
		times[sn.Time.Format(time.TimeOnly)] = sn
	}
	checks := []struct {
		hms  string
		what func(*snapshot.Snapshot) bool
	}{
		// b-status is placed after a-innodb, whose output (its own clock) stands beside it
		{"12:00:01", func(sn *snapshot.Snapshot) bool { return sn.Status["Questions"] == "100" && sn.InnoDB != nil }},
		{"12:00:03", func(sn *snapshot.Snapshot) bool { return sn.Host != nil }},                  // vmstat after b, first row a base
		{"12:00:30", func(sn *snapshot.Snapshot) bool { return len(sn.Processlist) == 1 }},        // TS stamp
		{"12:00:41", func(sn *snapshot.Snapshot) bool { return sn.Status["Questions"] == "900" }}, // Uptime 40 s after b
	}
	for _, ch := range checks {
		if sn := times[ch.hms]; sn == nil || !ch.what(sn) {
			t.Errorf("%s: %+v", ch.hms, sn)
		}
	}
	note := strings.Join(s.Notes, "\n")
	for _, want := range []string{"b-status.txt after a-innodb.txt", "e-status.txt by Uptime after b-status.txt", "by their own clocks: a-innodb.txt"} {
		if !strings.Contains(note, want) {
			t.Errorf("notes %q lack %q", note, want)
		}
	}
	if sk := strings.Join(c.Skipped, "\n"); !strings.Contains(sk, "notes.txt: not a capture") || !strings.Contains(sk, "older: a directory") {
		t.Errorf("skipped %q", c.Skipped)
	}
}

// Files that are no capture are refused with one line saying what they are.
func TestRefusalsSayWhatAFileIs(t *testing.T) {
	cases := map[string]string{
		"":                      "empty file",
		"-- MySQL dump 10.13\n": "mysqldump",
		"Error in foreign key constraint of table test/child:\nthere is no index\n":                      "FOREIGN KEY ERROR",
		"Cannot drop table `test/t1`\nbecause it is referenced by `test/t2`\n":                           "FOREIGN KEY ERROR",
		"Aborted_clients   164    0    0\nAborted_connects    0    0    0\nBytes_received  10  35  35\n": "pt-mext output",
		"autocommit\tON\nmax_connections\t151\nversion\t8.0.36\n":                                        "SHOW VARIABLES alone",
	}
	for text, want := range cases {
		dir := writeCapture(t, map[string]string{"f": text})
		_, err := Import(filepath.Join(dir, "f"), Options{})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%.30q: %v; want one line with %q", text, err, want)
		}
	}
}

// pt-secure-collect scrubs the epoch of TS markers into "hostname"; the date
// at the end of the line still places each sample.
func TestScrubbedTSMarkers(t *testing.T) {
	pl := "TS hostname2026-12-01 12:00:00\n*************************** 1. row ***************************\n" +
		"     Id: 1\nCommand: Sleep\n   Info: NULL\nTS hostname2026-12-01 12:00:01\n" +
		"*************************** 1. row ***************************\n     Id: 2\nCommand: Sleep\n   Info: NULL\n"
	dir := writeCapture(t, map[string]string{"pl.sample": pl})
	s := importOne(t, filepath.Join(dir, "pl.sample"), FormatProcesslist)
	if len(s.Snapshots) != 2 || s.Approximate || !s.Start().Equal(at("12:00:00")) || s.Problems.Count != 0 {
		t.Fatalf("%d snapshots from %v, approximate %v, problems %+v", len(s.Snapshots), s.Start(), s.Approximate, s.Problems)
	}
}

// The project's own batch-mode capture (`mysql -e`, one line per output).
func TestInnoDBBatchEscapedFixture(t *testing.T) {
	s := importOne(t, "../../snapshot/parse/testdata/innodb-status/mariadb-10.11-batch-escaped.txt", FormatInnoDBText)
	if len(s.Snapshots) != 1 || !s.Start().Equal(at("04:58:31")) || s.Snapshots[0].InnoDB.BufferPool.SizePages != 1014 {
		t.Fatalf("%d snapshots from %v", len(s.Snapshots), s.Start())
	}
}

// `iostat -dx 1` saved alone: one sample per report after the since-boot one,
// and Delta gives back iostat's own figures.
func TestIostatAlone(t *testing.T) {
	dir := t.TempDir()
	testfiles.CopyFile(t, filepath.Join(ptStalkDir, "2026_12_01_04_38_31-iostat"), filepath.Join(dir, "iostat.log"))
	s := importOne(t, filepath.Join(dir, "iostat.log"), FormatIostat)
	reports, _, _ := parseIostat(readText(t, filepath.Join(dir, "iostat.log")))
	if len(s.Snapshots) != len(reports)-1 || s.Problems.Count != 0 {
		t.Fatalf("%d snapshots for %d reports, problems %+v", len(s.Snapshots), len(reports), s.Problems)
	}
	r := snapshot.Delta(s.Snapshots[0], s.Snapshots[1])
	if r == nil || r.Host == nil || len(r.Host.Disks) != 1 {
		t.Fatalf("rates %+v", r)
	}
	if d, want := r.Host.Disks[0], reports[2].Devices[0].Values; math.Abs(d.ReadsPerSec-want["r/s"]) > 1 || math.Abs(d.UtilPercent-want["%util"]) > 0.2 {
		t.Errorf("vda %+v, iostat printed r/s %v %%util %v", d, want["r/s"], want["%util"])
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
