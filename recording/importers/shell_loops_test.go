package importers

import (
	"bufio"
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

// The tablelock-bpmiss capture: 12 MyISAM clients queueing on a table lock while
// 4 readers miss the buffer pool, logged by the reference incident's loops.
const shellLoopsDir = "testdata/shell-loops"

func importShellFixture(t testing.TB) *Session {
	t.Helper()
	c, err := Import(shellLoopsDir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatShellLoops || len(c.Sessions) != 1 {
		t.Fatalf("format %s with %d sessions", c.Format, len(c.Sessions))
	}
	return &c.Sessions[0]
}

func at(hms string) time.Time {
	t, err := time.Parse(time.DateTime, "2026-12-01 "+hms)
	if err != nil {
		panic(err)
	}
	return t
}

func snapAt(t testing.TB, s *Session, hms string) *snapshot.Snapshot {
	t.Helper()
	for _, sn := range s.Snapshots {
		if sn.Time.Equal(at(hms)) {
			return sn
		}
	}
	t.Fatalf("no snapshot at %s", hms)
	return nil
}

func TestShellLoopsTimeline(t *testing.T) {
	s := importShellFixture(t)
	// one snapshot per status sample: 62 samples from 04:38:26 to 04:39:32
	if len(s.Snapshots) != 62 {
		t.Errorf("%d snapshots, want 62", len(s.Snapshots))
	}
	if !s.Start().Equal(at("04:38:26")) || !s.End().Equal(at("04:39:32")) {
		t.Errorf("span %v .. %v", s.Start(), s.End())
	}
	if s.Approximate || s.Problems.Count != 0 {
		t.Errorf("approximate %v, problems %+v", s.Approximate, s.Problems)
	}
	want := []string{"no InnoDB status", "no server variables", "no lock waits", "no replica status", "no stall clocks",
		"server-wide Com_*, Handler_*, Questions, Threads_running (SHOW STATUS was session scope)"}
	if strings.Join(s.Missing, "|") != strings.Join(want, "|") {
		t.Errorf("missing = %q, want %q", s.Missing, want)
	}
	if st := snapAt(t, s, "04:38:40").Collectors[snapshot.CollectorInnoDB]; st.Unavailable != notCaptured {
		t.Errorf("innodb collector state = %+v", st)
	}
}

func TestShellLoopsStatus(t *testing.T) {
	s := importShellFixture(t)
	waited := map[string]string{"04:38:30": "0", "04:38:31": "447", "04:38:33": "4261", "04:38:35": "9472"}
	for hms, want := range waited {
		if got := snapAt(t, s, hms).Status["Table_locks_waited"]; got != want {
			t.Errorf("Table_locks_waited at %s = %q, want %q", hms, got, want)
		}
	}
	sn := snapAt(t, s, "04:38:31")
	if sn.Status["Innodb_buffer_pool_reads"] != "33610" || sn.Status["Uptime"] != "10" {
		t.Errorf("04:38:31 status: reads %q uptime %q", sn.Status["Innodb_buffer_pool_reads"], sn.Status["Uptime"])
	}
	// SHOW STATUS is session scope: Com_select stayed 0 on a busy server, so it
	// must be absent rather than a misleading zero.
	if v, ok := sn.Status["Com_select"]; ok {
		t.Errorf("session-scope Com_select kept: %q", v)
	}
	// vmstat gives no CPU count and the loops have nothing else that does.
	if len(s.Notes) != 2 || !strings.Contains(s.Notes[0], "CPU count is unknown") || !strings.Contains(s.Notes[1], "session scope") {
		t.Errorf("notes = %q", s.Notes)
	}
	r := snapshot.Delta(snapAt(t, s, "04:38:34"), snapAt(t, s, "04:38:35"))
	if got, _ := r.Rate("Table_locks_waited"); got != 9472-5861 {
		t.Errorf("Table_locks_waited rate at 04:38:35 = %v, want %d", got, 9472-5861)
	}
}

func TestShellLoopsProcesslist(t *testing.T) {
	s := importShellFixture(t)
	sn := snapAt(t, s, "04:38:31")
	if len(sn.Processlist) != 19 {
		t.Errorf("04:38:31: %d rows, want 19 (the loop's own SHOW FULL PROCESSLIST dropped)", len(sn.Processlist))
	}
	waiting := 0
	for _, p := range sn.Processlist {
		if p.State == "Waiting for table level lock" {
			waiting++
			if p.DB != "mysqlslap" || !strings.HasPrefix(p.Info, "INSERT INTO t1") {
				t.Errorf("waiting row %+v", p)
			}
		}
	}
	if waiting != 11 {
		t.Errorf("04:38:31: %d rows waiting for the table lock, want 11", waiting)
	}
	if _, stale := sn.Collectors[snapshot.CollectorProcesslist]; stale {
		t.Errorf("04:38:31 processlist marked %+v", sn.Collectors[snapshot.CollectorProcesslist])
	}
	// No status at 04:38:32 and no processlist at 04:38:33: the 04:38:32 sample
	// stands in, marked stale.
	st := snapAt(t, s, "04:38:33").Collectors[snapshot.CollectorProcesslist]
	if !st.Stale || st.Error != "carried from 04:38:32" {
		t.Errorf("04:38:33 processlist state = %+v", st)
	}
}

// Delta over imported hosts reproduces vmstat's own r, b, us, cs and in.
func TestShellLoopsVmstatRates(t *testing.T) {
	s := importShellFixture(t)
	rows := vmstatByTime(t, filepath.Join(shellLoopsDir, "vmstat.log"))
	checked := 0
	for i := 1; i < len(s.Snapshots); i++ {
		prev, cur := s.Snapshots[i-1], s.Snapshots[i]
		want := rows[cur.Time.Format(time.TimeOnly)]
		if cur.Host.ProcsRunning != want["r"] || cur.Host.ProcsBlocked != want["b"] {
			t.Errorf("%s: r/b = %d/%d, want %d/%d", cur.Time.Format(time.TimeOnly), cur.Host.ProcsRunning, cur.Host.ProcsBlocked, want["r"], want["b"])
		}
		if cur.Time.Sub(prev.Time) != time.Second {
			continue
		}
		h := snapshot.Delta(prev, cur).Host
		sum := float64(want["us"] + want["sy"] + want["id"] + want["wa"] + want["st"])
		if math.Abs(h.CPU.User-float64(want["us"])*100/sum) > 1e-9 || h.ContextSwitches != float64(want["cs"]) || h.Interrupts != float64(want["in"]) {
			t.Errorf("%s: us %.2f cs %v in %v, vmstat printed us %d (of %v) cs %d in %d", cur.Time.Format(time.TimeOnly), h.CPU.User, h.ContextSwitches, h.Interrupts, want["us"], sum, want["cs"], want["in"])
		}
		checked++
	}
	if checked < 50 {
		t.Errorf("only %d one-second intervals checked", checked)
	}
	if h := snapAt(t, s, "04:38:29").Host; h.ProcsRunning != 8 || h.MemFree != 23342656*1024 {
		t.Errorf("04:38:29 host = r %d free %d", h.ProcsRunning, h.MemFree)
	}
	if h := snapAt(t, s, "04:38:29").Host; !h.LoadUnknown || h.LoadAverages() != "–" {
		t.Errorf("vmstat has no load averages, yet they read %q", h.LoadAverages())
	}
}

// vmstatByTime reads the gawk-stamped vmstat log with plain field splitting.
func vmstatByTime(t *testing.T, path string) map[string]map[string]int64 {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cols := strings.Fields("r b swpd free buff cache si so bi bo in cs us sy id wa st")
	out := map[string]map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2+len(cols) || fields[2] == "r" {
			continue
		}
		row := map[string]int64{}
		for i, c := range cols {
			row[c], _ = strconv.ParseInt(fields[2+i], 10, 64)
		}
		out[fields[1]] = row
	}
	return out
}

func TestShellLoopsSubsets(t *testing.T) {
	dir := t.TempDir()
	testfiles.CopyFile(t, filepath.Join(shellLoopsDir, "vmstat.log"), filepath.Join(dir, "a"))
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	if len(s.Snapshots) != 67 || s.Snapshots[3].Host == nil || s.Snapshots[3].Status != nil {
		t.Fatalf("vmstat only: %d snapshots", len(s.Snapshots))
	}
	if !strings.Contains(strings.Join(s.Missing, ","), "no status counters,no processlist") {
		t.Errorf("missing = %q", s.Missing)
	}
	if s.Snapshots[3].Collectors[snapshot.CollectorProcesslist].Unavailable != notCaptured {
		t.Errorf("processlist state = %+v", s.Snapshots[3].Collectors[snapshot.CollectorProcesslist])
	}
}

func TestShellLoopsProblems(t *testing.T) {
	dir := t.TempDir()
	text := "2026/12/01 04:38:26 Variable_name\tValue\n" +
		"2026/12/01 04:38:26 Uptime\t5\n" +
		"garbage without a stamp\n" +
		"2026/12/01 04:38:26 1 2 3\n" +
		"2026/12/01 04:38:27 Id\tUser\tHost\tdb\tCommand\tTime\tState\tInfo\n" +
		"2026/12/01 04:38:27 x\troot\th\tNULL\tSleep\t0\t\tNULL\n"
	if err := os.WriteFile(filepath.Join(dir, "log"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Sessions[0].Problems
	if p.Count != 3 || len(p.First) != 3 || !strings.HasPrefix(p.First[0], "log:3: ") || !strings.HasPrefix(p.First[2], "log:6: ") {
		t.Errorf("problems = %+v", p)
	}
}

// A SHOW VARIABLES loop shares the Variable_name/Value layout; its lower-case
// names go to Variables, not to status.
func TestShellLoopsVariables(t *testing.T) {
	dir := t.TempDir()
	text := "2026/12/01 04:38:26 Variable_name\tValue\n" +
		"2026/12/01 04:38:26 max_connections\t151\n" +
		"2026/12/01 04:38:27 Variable_name\tValue\n" +
		"2026-12-01 04:38:27 Uptime\t6\n" // date '+%F %T'

	if err := os.WriteFile(filepath.Join(dir, "log"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	if len(s.Snapshots) != 1 || s.Snapshots[0].Variables["max_connections"] != "151" || s.Snapshots[0].Status["Uptime"] != "6" {
		t.Errorf("%d snapshots, first %+v", len(s.Snapshots), s.Snapshots[0])
	}
}

// The reference incident's own logs: MySQL 5.1, no Progress column, one file
// holding everything the loops printed.
func TestShellLoopsIncidentLayout(t *testing.T) {
	sel := "SELECT intcol1 FROM t1 WHERE id =  '70367'"
	text := strings.Join([]string{
		"2019/01/21 00:23:58 procs -----------memory---------- ---swap-- -----io---- --system-- -----cpu-----",
		"2019/01/21 00:23:58  r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st",
		"2019/01/21 00:23:58  1  0      0 7480888  58500 201656    0    0     0     0   88   66  1  0 98  0  0   ",
		"2019/01/21 00:24:04 Variable_name\tValue",
		"2019/01/21 00:24:04 Aborted_clients\t1",
		"2019/01/21 00:24:04 Qcache_lowmem_prunes\t0",
		"2019/01/21 00:24:04 Uptime\t600",
		"2019/01/21 00:24:04  4  0      0 7480244  58500 201660    0    0     0     0  148   90 25  5 70  0  0  ",
		"2019/01/21 00:24:04 Id\tUser\tHost\tdb\tCommand\tTime\tState\tInfo",
		"2019/01/21 00:24:04 2171\troot\tlocalhost\tmysqlslap\tQuery\t41\tSending data\tupdate a.b ignore index (b) set c.d = 1",
		"2019/01/21 00:24:04 2182\troot\tlocalhost\tmysqlslap\tQuery\t3\tWaiting for query cache lock\t" + sel,
		"2019/01/21 00:24:04 2181\troot\tlocalhost\tNULL\tQuery\t0\tNULL\tshow full processlist",
	}, "\n")
	path := filepath.Join(t.TempDir(), "all.log")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Import(path, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	if len(s.Snapshots) != 1 || s.Problems.Count != 0 {
		t.Fatalf("%d snapshots, problems %+v", len(s.Snapshots), s.Problems)
	}
	sn := s.Snapshots[0]
	if len(sn.Processlist) != 2 || sn.Processlist[0].TimeMS != 41000 || sn.Processlist[1].State != "Waiting for query cache lock" || sn.Processlist[1].Info != sel {
		t.Errorf("processlist = %+v", sn.Processlist)
	}
	if sn.Status["Qcache_lowmem_prunes"] != "0" || sn.Host == nil || sn.Host.ProcsRunning != 4 {
		t.Errorf("status %v host %+v", sn.Status, sn.Host)
	}
}
