package importers

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// testdata/shell-loops-top and shell-loops-top-stamped (made by
// testdata/shell-loops-top.sh on a real server, on a host running two more
// mariadbd, one of them busy): stamped status loops with `top -b -d 1`
// beside them, raw with vmstat and a ps -eaF in one, stamped by a loop of its
// own after a stamped ps in the other, and a CPU hog (sha1sum) whose PID,
// start and stop, with the server's PID, are in shell-loops-top.truth.

// A shell-loop capture with top beside it names the processes outside the
// server by their CPU, the hog on the seconds it ran and on no other, and
// tells this server's mysqld from the others on the host.
func TestShellLoopsTopAndPs(t *testing.T) {
	facts := readFacts(t, "testdata/shell-loops-top.truth")
	for _, dir := range []string{"testdata/shell-loops-top", "testdata/shell-loops-top-stamped"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c, err := Import(dir, Options{Location: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			if c.Format != FormatShellLoops || len(c.Skipped) != 0 {
				t.Fatalf("format %s, skipped %q", c.Format, c.Skipped)
			}
			s := c.Sessions[0]
			if !strings.Contains(strings.Join(s.Notes, "\n"), "iterations of top from") {
				t.Errorf("no note of top: %q", s.Notes)
			}
			checkHog(t, s.Snapshots, facts)
		})
	}
}

type hogFacts struct {
	hog, server int
	start, stop int64
}

func readFacts(t *testing.T, path string) hogFacts {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := map[string]int64{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		name, num, _ := strings.Cut(line, " ")
		if v[name], err = strconv.ParseInt(num, 10, 64); err != nil {
			t.Fatalf("%s: %q", path, line)
		}
	}
	return hogFacts{hog: int(v["hog_pid"]), server: int(v["server_pid"]), start: v["hog_start"], stop: v["hog_stop"]}
}

// checkHog: while it ran the hog is the busiest process outside the server,
// burning half a CPU or more (a second's grace at each end: top's figures
// cover the second before it prints them, and it lists no process that
// exited before it printed, so the hog's last second is never seen); a
// second before it started and two after it stopped it is not there;
// every second with the server's figures names this server's process, and
// its CPU rate is read between them.
func checkHog(t *testing.T, snaps []*snapshot.Snapshot, f hogFacts) {
	t.Helper()
	during, named, mysqldRates := 0, 0, 0
	for i, sn := range snaps {
		h, sec := sn.Host, sn.Time.Unix()
		if h == nil {
			continue
		}
		if h.Mysqld != nil && h.Mysqld.PID != f.server {
			t.Errorf("%s: mysqld pid %d, want %d", sn.Time.Format(time.TimeOnly), h.Mysqld.PID, f.server)
		}
		if i > 0 {
			if r := snapshot.Delta(snaps[i-1], sn); r != nil && r.Host != nil && r.Host.Mysqld != nil {
				mysqldRates++
			}
		}
		hog := busyOf(h.Busiest, f.hog)
		switch {
		case sec > f.start && sec < f.stop-1:
			during++
			if len(h.Busiest) > 0 && h.Busiest[0].PID == f.hog && hog >= 0.5 {
				named++
			}
		case sec < f.start-1 || sec > f.stop+2:
			if hog > 0 {
				t.Errorf("%s: the hog at %.2f CPUs outside its run", sn.Time.Format(time.TimeOnly), hog)
			}
		}
	}
	if during < 6 || named < during {
		t.Errorf("the hog is the busiest outside mysqld in %d of %d seconds of its run", named, during)
	}
	if mysqldRates < len(snaps)/2 {
		t.Errorf("mysqld's CPU rate read in %d of %d seconds", mysqldRates, len(snaps))
	}
}

func busyOf(procs []snapshot.ProcessUse, pid int) float64 {
	for _, p := range procs {
		if p.PID == pid {
			return p.CPUs
		}
	}
	return 0
}

// ps alone beside the loops tells the server among the host's three and
// gives its resident size at the start; with no top, no CPU per process.
func TestShellLoopsPsAlone(t *testing.T) {
	facts := readFacts(t, "testdata/shell-loops-top.truth")
	dir := t.TempDir()
	for _, name := range []string{"status.log", "vmstat.log", "variables.txt", "ps.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata/shell-loops-top", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	var first *snapshot.ProcessCPU
	for _, sn := range s.Snapshots {
		if h := sn.Host; h != nil && h.Mysqld != nil && first == nil {
			first = h.Mysqld
		}
		if h := sn.Host; h != nil && len(h.Busiest) > 0 {
			t.Fatalf("%s: busiest %v from ps alone", sn.Time.Format(time.TimeOnly), h.Busiest)
		}
	}
	if first == nil || first.PID != facts.server || first.RSSBytes < 50<<20 {
		t.Errorf("mysqld %+v, want pid %d with its resident size", first, facts.server)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "ps.txt: mysqld (pid") {
		t.Errorf("notes %q", s.Notes)
	}
}
