package importers

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// fuzzImport writes text as a capture file and imports it: whatever the bytes,
// the import must return sessions or an error, never panic.
func fuzzImport(t *testing.T, name, text string, opts Options) {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	checkImport(t, path, opts)
}

// checkImport imports path: sessions or an error, and snapshots in time order.
func checkImport(t *testing.T, path string, opts Options) {
	c, err := Import(path, opts)
	if err != nil {
		return
	}
	for _, s := range c.Sessions {
		for i := 1; i < len(s.Snapshots); i++ {
			if !s.Snapshots[i].Time.After(s.Snapshots[i-1].Time) {
				t.Fatalf("snapshot %d at %v not after %v", i, s.Snapshots[i].Time, s.Snapshots[i-1].Time)
			}
		}
	}
}

func seedHead(f *testing.F, path string, n int) {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b[:min(n, len(b))]))
}

func FuzzShellLoops(f *testing.F) {
	seedHead(f, "testdata/shell-loops/vmstat.log", 2000)
	seedHead(f, "testdata/shell-loops/stats.log", 3000)
	seedHead(f, "testdata/shell-loops/processlist.log", 3000)
	f.Add("2026/12/01 04:38:26 Id\tUser\n2026/12/01 04:38:26 1\t2\n")
	f.Fuzz(func(t *testing.T, text string) {
		fuzzImport(t, "log", text, Options{Location: time.UTC})
	})
}

func FuzzMysqladmin(f *testing.F) {
	seedHead(f, "testdata/mysqladmin-ext-i1-r.txt", 4000)
	f.Add("+--+\n| Variable_name | Value |\n+--+\n| Uptime | 5 |\n+--+\n\n+--+\n| Variable_name | Value |\n| Uptime | 1 |\n| X | -9223372036854775808 |\n")
	f.Fuzz(func(t *testing.T, text string) {
		fuzzImport(t, "ext", text, Options{Start: time.Unix(1796099906, 0), Location: time.UTC})
	})
}

// FuzzPtStalkHost reads fuzzed /proc/stat, /proc/diskstats and /proc/vmstat
// copies. Each block is a copy of counters, so applying one twice must give
// what applying it once does: two TS blocks in one second land on the same
// host and the later must replace the earlier, not add to it. The whole
// collection, imported, keeps its snapshots in time order and its figures in
// range.
func FuzzPtStalkHost(f *testing.F) {
	head := func(part string, n int) string {
		b, err := os.ReadFile(filepath.Join(ptStalkDir, "2026_12_01_04_38_31-"+part))
		if err != nil {
			f.Fatal(err)
		}
		return string(b[:min(n, len(b))])
	}
	f.Add(head("procstat", 1500), head("diskstats", 1500), head("procvmstat", 2500))
	f.Add("TS 1796099913.0 x\ncpu 1 2 3\ncpu0 1\nctxt 5\nprocs_running 3\nTS 1796099913.5 x\ncpu 2 3 4\n",
		"TS 1796099913.0 x\n 8 0 sda 1 0 8 1 2 0 16 1 0 3 4\nTS 1796099913.9 x\n 8 0 sda 2 0 8 1 2 0 16 1 0 3 4\n",
		"TS 1796099913.0 x\npswpin 7\npswpout 18446744073709551615\n")
	f.Add("cpu 1\nTS -1\nTS 1e12\nTS 1796099913 x\nintr x\n", "TS 1796099913\n1 2 d a b c d e f g h i j k\n", "pswpin\n")
	f.Fuzz(func(t *testing.T, procstat, diskstats, procvmstat string) {
		parts := []struct {
			name, text string
			apply      func(*snapshot.Host, []string)
		}{{"procstat", procstat, applyProcStat}, {"diskstats", diskstats, applyDiskstats}, {"procvmstat", procvmstat, applyProcVmstat}}
		dir := t.TempDir()
		for _, p := range parts {
			lines := strings.Split(p.text, "\n")
			var once, twice snapshot.Host
			p.apply(&once, lines)
			p.apply(&twice, lines)
			p.apply(&twice, lines)
			if !reflect.DeepEqual(once, twice) {
				t.Fatalf("%s applied twice:\n%+v\nonce:\n%+v", p.name, twice, once)
			}
			checkHost(t, &once)
			if err := os.WriteFile(filepath.Join(dir, "2026_12_01_04_38_31-"+p.name), []byte(p.text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		c, err := Import(dir, Options{Location: time.UTC})
		if err != nil {
			return
		}
		for _, s := range c.Sessions {
			for i, sn := range s.Snapshots {
				if i > 0 && !sn.Time.After(s.Snapshots[i-1].Time) {
					t.Fatalf("snapshot %d at %v not after %v", i, sn.Time, s.Snapshots[i-1].Time)
				}
				if sn.Host != nil {
					checkHost(t, sn.Host)
				}
			}
		}
	})
}

// checkHost holds what the /proc readers promise of a host: CPU seconds are
// finite and not negative, and only devices that did I/O are listed, by a
// name and with byte counts in whole sectors.
func checkHost(t *testing.T, h *snapshot.Host) {
	t.Helper()
	for _, v := range []float64{h.CPU.User, h.CPU.Nice, h.CPU.System, h.CPU.Idle, h.CPU.IOWait, h.CPU.IRQ, h.CPU.SoftIRQ, h.CPU.Steal} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("CPU times %+v", h.CPU)
		}
	}
	if h.NumCPU < 0 || h.ProcsRunning < 0 || h.ProcsBlocked < 0 {
		t.Fatalf("host %+v", h)
	}
	for _, d := range h.Disks {
		if d.Name == "" || strings.ContainsAny(d.Name, " \t\n") || d.Reads+d.Writes == 0 ||
			d.ReadBytes%sectorBytes != 0 || d.WriteBytes%sectorBytes != 0 {
			t.Fatalf("disk %+v", d)
		}
	}
}

// FuzzGroupPtStalk sorts fuzzed file names into collections: each named file
// goes to the collection and part its name says, the first file of a part
// wins, no file is in two collections and the collections come in prefix
// order. The names are of files that do not exist in an empty directory, so
// guessing a part from content reads nothing.
func FuzzGroupPtStalk(f *testing.F) {
	f.Add("2026_12_01_04_38_31-processlist\n2026_12_01_04_38_31-mysqladmin\n2026_12_01_04_38_31-df\n" +
		"2026_12_01_05_10_00-vmstat\n2026_12_01_05_10_00-vmstat-overall\npl.txt")
	f.Add("a-procvmstat\na-vmstat\n-output\nx--hostname\nb-innodbstatus1\nb-innodbstatus1")
	dir := f.TempDir() // stays empty
	f.Fuzz(func(t *testing.T, names string) {
		var files []string
		for _, n := range strings.Split(names, "\n") {
			if n == "" || n == "." || n == ".." || strings.ContainsAny(n, "/\x00") {
				continue
			}
			files = append(files, filepath.Join(dir, n))
		}
		r := &run{}
		for _, f := range files {
			r.files = append(r.files, sniffed{path: f})
		}
		groups := groupPtStalk(r)
		seen := map[string]bool{}
		for i, g := range groups {
			if i > 0 && groups[i-1].prefix >= g.prefix {
				t.Fatalf("collections %q then %q", groups[i-1].prefix, g.prefix)
			}
			for part, file := range g.files {
				if seen[file] {
					t.Fatalf("%s in two collections", file)
				}
				seen[file] = true
				if !slices.Contains(ptStalkParts, part) {
					t.Fatalf("part %q", part)
				}
				prefix, p := splitPtStalkName(filepath.Base(file))
				if p != part || prefix != g.prefix || prefix+"-"+p != filepath.Base(file) {
					t.Fatalf("%s filed as %q/%q, its name says %q/%q", file, g.prefix, part, prefix, p)
				}
				if first := slices.IndexFunc(files, func(f string) bool {
					pre, pa := splitPtStalkName(filepath.Base(f))
					return pre == prefix && pa == part
				}); files[first] != file {
					t.Fatalf("%s/%s is %s, but %s came first", prefix, part, file, files[first])
				}
			}
		}
	})
}

// FuzzInnoDBText splits fuzzed text into monitor outputs: each output holds
// exactly one header line and is the run of input lines starting at the line
// number it is reported at, the outputs come in order without overlapping,
// and no header line is lost. The file then imports with its snapshots in
// time order.
func FuzzInnoDBText(f *testing.F) {
	seedHead(f, "testdata/innodb/concatenated.txt", 6000)
	f.Add("=====\n2026-12-01 04:12:19 INNODB MONITOR OUTPUT\n=====\nx\nEND OF INNODB MONITOR OUTPUT\n1 row in set\n" +
		"=====\n2026-12-01 04:12:28 INNODB MONITOR OUTPUT\r\n=====\n2026-12-01 04:12:29 INNODB MONITOR OUTPUT\n")
	f.Fuzz(func(t *testing.T, text string) {
		path := filepath.Join(t.TempDir(), "innodb.txt")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		in, err := newInput([]string{path}, nil)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if text == "" {
			lines = nil
		}
		isHeader := isMonitorHeader
		next, headers := 1, 0
		err = splitMonitorOutputs(in, path, func(line int, out string) {
			chunk := strings.Split(out, "\n")
			if line < next || line-1+len(chunk) > len(lines) {
				t.Fatalf("output at line %d of %d lines (after %d): %q", line, len(lines), next, out)
			}
			n := 0
			for i, l := range chunk {
				if want := strings.TrimRight(lines[line-1+i], "\r\n"); l != want {
					t.Fatalf("output at line %d, its line %d is %q, the file's %q", line, i, l, want)
				}
				if isHeader(l) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("output at line %d has %d header lines", line, n)
			}
			headers++
			next = line + len(chunk)
		})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, l := range lines {
			if isHeader(strings.TrimRight(l, "\r\n")) {
				want++
			}
		}
		if headers != want {
			t.Fatalf("%d outputs for %d header lines", headers, want)
		}
		checkImport(t, path, Options{Start: time.Unix(1796099906, 0), Location: time.UTC})
	})
}

// FuzzPileFile imports fuzzed text saved by hand (SHOW STATUS tables,
// processlists in every layout, diskstats, vmstat, InnoDB fragments), alone
// and beside a timed InnoDB output: sessions in time order or an error, and
// every refusal or file left out is one line.
func FuzzPileFile(f *testing.F) {
	f.Add(statusTSV(true, "100", "1000") + statusTSV(true, "110", "1500"))
	f.Add("Aborted_clients 0 0\nQuestions 10 32\nUptime 1000 1011\nUptime_since_flush_status 1 2\n")
	f.Add("+----+------+\n| Id | User | Host | db | Command |\n+----+------+\n| 9 | a | h | d | Query |\n")
	f.Add(" *************************** 2. row ***************************\n      Id: 21\n Command: Query\n    Info: NULL\n\n")
	f.Add("21\tapp\th:1\tshop\tQuery\t30\tupdating\tUPDATE t\n")
	f.Add("TS 1796126400.0 x\n" + diskstats(1, 2) + "TS 1796126401.0 x\n" + diskstats(3, 4))
	f.Add(" r b w avm fre flt re pi po fr sr ad0 da0 in sy cs us sy id\n 1 0 0 6 3 1 0 0 0 1 0 0 0 2 1 3 22 15 63\n")
	f.Add("Linux 6.1 (h) \t12/01/26 \t_x86_64_\t(2 CPU)\n\nDevice r/s w/s %util\nvda 1.0 2.0 3.0\n\nDevice r/s w/s %util\nvda 4 5 6\n")
	f.Add("\n------------------------\nLATEST DETECTED DEADLOCK\n------------------------\n130624 17:39:24TOO DEEP\n")
	f.Fuzz(func(t *testing.T, text string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "b"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Import(filepath.Join(dir, "b"), Options{Location: time.UTC}); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("refusal of two lines: %q", err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a"), []byte(innodbStatus("12:00:00", 10)), 0o600); err != nil {
			t.Fatal(err)
		}
		checkImport(t, dir, Options{Location: time.UTC})
		if c, err := Import(dir, Options{Location: time.UTC}); err == nil {
			for _, s := range c.Skipped {
				if strings.Contains(s, "\n") {
					t.Fatalf("skipped reason of two lines: %q", s)
				}
			}
		}
	})
}
