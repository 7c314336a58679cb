package importers

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
	"github.com/mytop-go/mytop-go/snapshot"
)

// pt-stalk --no-stalk --run-time=40 of the tablelock-bpmiss incident.
const ptStalkDir = "testdata/ptstalk"

func importPtFixture(t testing.TB) *Session {
	t.Helper()
	c, err := Import(ptStalkDir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatPtStalk || len(c.Sessions) != 1 {
		t.Fatalf("format %s, %d sessions", c.Format, len(c.Sessions))
	}
	return &c.Sessions[0]
}

func TestPtStalkTimeline(t *testing.T) {
	s := importPtFixture(t)
	// 40 mysqladmin samples from the logged loop start (04:38:32.7); Uptime
	// skips 41, so the last lands on 04:39:12.
	if len(s.Snapshots) != 40 || !s.Start().Equal(at("04:38:32")) || !s.End().Equal(at("04:39:12")) {
		t.Fatalf("%d snapshots %v .. %v", len(s.Snapshots), s.Start(), s.End())
	}
	if s.Approximate || s.Snapshots[5].Approximate || !slices.Equal(s.Missing, []string{"no stall clocks"}) || s.Problems.Count != 0 {
		t.Errorf("approximate %v missing %q problems %+v", s.Approximate, s.Missing, s.Problems)
	}
	first := s.Snapshots[0]
	if first.Server.Version != "10.11.19-MariaDB-0+deb12u1" || first.Server.Flavor != snapshot.FlavorMariaDB {
		t.Errorf("server = %+v", first.Server)
	}
	if !first.VariablesChanged || s.Snapshots[1].VariablesChanged || first.Variables["innodb_buffer_pool_size"] != "6291456" {
		t.Errorf("variables: changed %v/%v, pool %q", first.VariablesChanged, s.Snapshots[1].VariablesChanged, first.Variables["innodb_buffer_pool_size"])
	}
}

func TestPtStalkStatusAndProcesslist(t *testing.T) {
	s := importPtFixture(t)
	first := snapAt(t, s, "04:38:32")
	if first.Status["Com_select"] != "5477" || first.Status["Table_locks_waited"] != "2890" {
		t.Errorf("04:38:32 Com_select %q Table_locks_waited %q", first.Status["Com_select"], first.Status["Table_locks_waited"])
	}
	if got := snapAt(t, s, "04:38:40").Status["Com_select"]; got != "36330" {
		t.Errorf("04:38:40 Com_select = %q, want 36330", got)
	}
	prev, _ := first.StatusInt("Table_locks_waited")
	rises := 0
	for _, sn := range s.Snapshots[1:20] {
		cur, _ := sn.StatusInt("Table_locks_waited")
		if cur < prev {
			t.Errorf("%s: Table_locks_waited fell from %d to %d", sn.Time.Format(time.TimeOnly), prev, cur)
		}
		if cur > prev {
			rises++
		}
		prev = cur
	}
	if rises < 15 {
		t.Errorf("Table_locks_waited rose in %d of 19 seconds", rises)
	}
	// first \G sample, at the loop's first turn (04:38:33): 22 rows less
	// pt-stalk's own SHOW FULL PROCESSLIST and its mysqladmin's SHOW STATUS
	pl := snapAt(t, s, "04:38:33").Processlist
	if n, w := len(pl), countWaiting(pl); n != 20 || w != 8 {
		t.Errorf("04:38:33: %d rows, %d waiting for the table lock; want 20 and 8", n, w)
	}
	if w := countWaiting(snapAt(t, s, "04:38:35").Processlist); w != 11 {
		t.Errorf("04:38:35: %d waiting, want 11", w)
	}
}

func countWaiting(rows []snapshot.Process) int {
	n := 0
	for _, p := range rows {
		if p.State == "Waiting for table level lock" {
			n++
		}
	}
	return n
}

// Host rates come from the TS-stamped /proc copies: Delta must give what the
// raw counters say.
func TestPtStalkHost(t *testing.T) {
	s := importPtFixture(t)
	if st := snapAt(t, s, "04:38:32").Collectors[snapshot.CollectorHost]; !st.Stale {
		t.Errorf("04:38:32 host state %+v: the first TS is 04:38:33", st)
	}
	h := snapshot.Delta(snapAt(t, s, "04:38:33"), snapAt(t, s, "04:38:34")).Host
	// cpu 308026 844 15186 560006 1528 0 682 1038 -> 308132 844 15271 560006 1529 0 687 1039
	if math.Abs(h.CPU.User-106.0/198*100) > 1e-6 || math.Abs(h.CPU.System-85.0/198*100) > 1e-6 {
		t.Errorf("cpu = %+v", h.CPU)
	}
	if h.ContextSwitches != 5367936-5330391 || h.Interrupts != 1966821-1959392 {
		t.Errorf("cs %v intr %v", h.ContextSwitches, h.Interrupts)
	}
	if len(h.Disks) != 1 || h.Disks[0].Name != "vda" || h.Disks[0].ReadsPerSec != 710846-697085 || h.Disks[0].UtilPercent != 57.6 {
		t.Errorf("disks = %+v", h.Disks)
	}
	host := snapAt(t, s, "04:38:34").Host
	if host.NumCPU != 2 || host.Hostname != "vm" || host.MemFree != 23257192*1024 {
		t.Errorf("host = cpus %d name %q free %d", host.NumCPU, host.Hostname, host.MemFree)
	}
}

func TestPtStalkInnoDB(t *testing.T) {
	s := importPtFixture(t)
	for _, hms := range []string{"04:38:32", "04:39:12"} {
		sn := snapAt(t, s, hms)
		if sn.InnoDB == nil || !sn.InnoDB.Time.Equal(at(hms)) {
			t.Fatalf("%s: innodb %+v", hms, sn.InnoDB)
		}
		if _, stale := sn.Collectors[snapshot.CollectorInnoDB]; stale {
			t.Errorf("%s: innodb marked %+v", hms, sn.Collectors[snapshot.CollectorInnoDB])
		}
	}
	if st := snapAt(t, s, "04:38:50").Collectors[snapshot.CollectorInnoDB]; !st.Stale || st.Error != "carried from 04:38:32" {
		t.Errorf("04:38:50 innodb state %+v", st)
	}
}

// Two collections in one directory are two sessions to pick from.
func TestPtStalkSessions(t *testing.T) {
	dir := t.TempDir()
	entries, err := os.ReadDir(ptStalkDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		testfiles.CopyFile(t, filepath.Join(ptStalkDir, e.Name()), filepath.Join(dir, e.Name()))
		if strings.HasSuffix(e.Name(), "-vmstat") || strings.HasSuffix(e.Name(), "-processlist") {
			later := strings.Replace(e.Name(), "04_38_31", "05_10_00", 1)
			testfiles.CopyFile(t, filepath.Join(ptStalkDir, e.Name()), filepath.Join(dir, later))
		}
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sessions) != 2 || c.Sessions[1].Name != "2026_12_01_05_10_00" {
		t.Fatalf("%d sessions", len(c.Sessions))
	}
	later := c.Sessions[1]
	// no mysqladmin, no -output: processlist samples a second apart from the prefix
	if !later.Start().Equal(at("05:10:00")) || len(later.Snapshots) != 40 {
		t.Errorf("later session %v, %d snapshots", later.Start(), len(later.Snapshots))
	}
	want := "no status counters,no InnoDB status,no server variables,no lock waits,no replica status,no stall clocks"
	if got := strings.Join(later.Missing, ","); got != want {
		t.Errorf("missing = %q, want %q", got, want)
	}
	if h := later.Snapshots[3].Host; h == nil || h.ProcsRunning != 9 { // vmstat's fourth row
		t.Errorf("vmstat host at sample 3 = %+v", h)
	}
}

func FuzzPtStalkProcesslist(f *testing.F) {
	seedHead(f, "testdata/ptstalk/2026_12_01_04_38_31-processlist", 3000)
	f.Add("TS 1796099913.0 2026-12-01 04:38:33\n*** 1. row ***\n  Id: 1\nInfo: x\ny\nTS 1796099914.5 x\n")
	f.Fuzz(func(t *testing.T, text string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "2026_12_01_04_38_31-processlist"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Import(dir, Options{Location: time.UTC})
		if err != nil {
			return
		}
		for _, s := range c.Sessions {
			for i := 1; i < len(s.Snapshots); i++ {
				if !s.Snapshots[i].Time.After(s.Snapshots[i-1].Time) {
					t.Fatalf("snapshot %d not after %d", i, i-1)
				}
			}
		}
	})
}

// Parts given under other names are recognised by content; the collection's
// other files (iostat, df...) are left alone.
func TestPtStalkRenamedParts(t *testing.T) {
	dir := t.TempDir()
	for part, name := range map[string]string{
		"processlist": "pl.txt", "procstat": "stat", "diskstats": "disks", "mysqladmin": "ext",
		"df": "2026_12_01_04_38_31-df",
	} {
		testfiles.CopyFile(t, filepath.Join(ptStalkDir, "2026_12_01_04_38_31-"+part), filepath.Join(dir, name))
	}
	for _, name := range []string{"pl.txt", "stat", "disks", "ext"} {
		if got := guessPtStalkPart(filepath.Join(dir, name)); got == "" {
			t.Errorf("%s not recognised", name)
		}
	}
	if got := guessPtStalkPart(filepath.Join(dir, "2026_12_01_04_38_31-df")); got != "" {
		t.Errorf("df guessed as %q", got)
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	if len(c.Sessions) != 1 || len(s.Snapshots) != 40 {
		t.Fatalf("%d sessions, %d snapshots", len(c.Sessions), len(s.Snapshots))
	}
	sn := s.Snapshots[2]
	if sn.Status == nil || len(sn.Processlist) == 0 || sn.Host == nil || len(sn.Host.Disks) != 1 {
		t.Errorf("snapshot 2: status %v, %d rows, host %+v", sn.Status != nil, len(sn.Processlist), sn.Host)
	}
}

func TestPtStalkProgressReachesTotal(t *testing.T) {
	var done, total int64
	if _, err := Import(ptStalkDir, Options{Location: time.UTC, Progress: func(d, tot int64) { done, total = d, tot }}); err != nil {
		t.Fatal(err)
	}
	if done != total || total < 3_000_000 {
		t.Errorf("progress ended at %d of %d", done, total)
	}
}

// Two /proc/diskstats copies stamped in the same second make one host, with
// the later copy's counters, not each device twice.
func TestPtStalkDiskstatsSameSecond(t *testing.T) {
	dir := t.TempDir()
	text := "TS 1796099913.0 x\n 8 0 sda 1 0 8 1 2 0 16 1 0 3 4\nTS 1796099913.9 x\n 8 0 sda 2 0 8 1 2 0 16 1 0 3 4\n"
	for part, text := range map[string]string{"diskstats": text, "procstat": "TS 1796099913.0 x\ncpu 1 2 3 4\n"} {
		if err := os.WriteFile(filepath.Join(dir, "2026_12_01_04_38_31-"+part), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	h := c.Sessions[0].Snapshots[0].Host
	if h == nil || len(h.Disks) != 1 || h.Disks[0].Reads != 2 {
		t.Fatalf("host %+v", h)
	}
}

// pt-stalk logged its loop start, every mysqladmin sample has an Uptime
// past the one before, and -processlist and -slave-status hold a sample for
// every turn of the loop that stamped -procstat: every sample is placed
// exactly, and the session is not approximate. Each processlist sample sits
// at its turn's stamp, none before the loop's first turn.
func TestPtStalkExactFromUptimeAndLoop(t *testing.T) {
	s := importPtFixture(t)
	note := strings.Join(s.Notes, "\n")
	if s.Approximate || s.Snapshots[5].Approximate || !strings.Contains(note, "times are exact") || strings.Contains(note, "carry no clock") {
		t.Errorf("approximate %v, notes %q", s.Approximate, note)
	}
	stamps := map[int64]bool{}
	for line := range strings.Lines(readText(t, filepath.Join(ptStalkDir, "2026_12_01_04_38_31-procstat"))) {
		if st, ok := parseTSMarker(strings.TrimSpace(line), time.UTC); ok {
			stamps[st.Unix()] = true
		}
	}
	if len(stamps) != 40 {
		t.Fatalf("%d procstat stamps", len(stamps))
	}
	if st := snapAt(t, s, "04:38:32").Collectors[snapshot.CollectorProcesslist]; !st.Stale {
		t.Errorf("04:38:32, before the loop's first turn (04:38:33): processlist %+v", st)
	}
	fresh := 0
	for _, sn := range s.Snapshots {
		st, marked := sn.Collectors[snapshot.CollectorProcesslist]
		if stamps[sn.Time.Unix()] != !marked {
			t.Errorf("%s: a loop stamp %v, processlist %+v", sn.Time.Format(time.TimeOnly), stamps[sn.Time.Unix()], st)
		}
		if !marked {
			fresh++
		}
	}
	if fresh < 38 {
		t.Errorf("%d of %d snapshots have a processlist of their own second", fresh, len(s.Snapshots))
	}
}

// Where a piece of that is missing, the session stays approximate and says
// which part was estimated: without the logged loop start (mysqladmin from
// the prefix's time), with a processlist sample fewer than the loop's turns.
func TestPtStalkApproximateWhereNotExact(t *testing.T) {
	copyFixture := func(t *testing.T, skip string, edit func(name, text string) string) string {
		dir := t.TempDir()
		entries, err := os.ReadDir(ptStalkDir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), skip) {
				continue
			}
			text := edit(e.Name(), readText(t, filepath.Join(ptStalkDir, e.Name())))
			if err := os.WriteFile(filepath.Join(dir, e.Name()), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	same := func(_, text string) string { return text }
	// One or two turns short at the end is placed on the loop
	// (TestOnLoopPlacesAPartCutShort); three are not.
	dropLastSamples := func(name, text string) string {
		if !strings.HasSuffix(name, "-processlist") {
			return text
		}
		for range 3 {
			text = text[:strings.LastIndex(text, "*************************** 1. row")]
		}
		return text
	}
	for _, c := range []struct {
		name, dir, part string
	}{
		{"no logged loop start", copyFixture(t, "-output", same), "mysqladmin"},
		{"three processlist samples fewer than the loop's turns", copyFixture(t, "\x00", dropLastSamples), "processlist"},
	} {
		got, err := Import(c.dir, Options{Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		s := got.Sessions[0]
		note := strings.Join(s.Notes, "\n")
		if !s.Approximate || !strings.Contains(note, "pt-stalk's "+c.part) || !strings.Contains(note, "carry no clock") {
			t.Errorf("%s: approximate %v, notes %q", c.name, s.Approximate, note)
		}
	}
}
