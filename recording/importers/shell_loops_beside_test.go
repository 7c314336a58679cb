package importers

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// testdata/shell-loops-beside: the first seconds of the tablelock-bpmiss
// shell loops (status cut to a few counters, vmstat), with the iostat -dx 1
// and mpstat -P ALL 1 that pt-stalk ran at the same time beside them, a
// variables file naming the server, and four seconds of TS-stamped
// /proc/meminfo and netstat -s loops (real copies from testdata/ptstalk-host,
// restamped onto these seconds).

// Files beside shell loops are read onto their timeline: iostat's disks
// join vmstat's seconds, mpstat gives the CPU count (before the variables'
// thread_pool_size), the variables the server's version.
func TestShellLoopsBesideFiles(t *testing.T) {
	c, err := Import("testdata/shell-loops-beside", Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatShellLoops || len(c.Skipped) != 0 {
		t.Fatalf("format %s, skipped %q", c.Format, c.Skipped)
	}
	s := c.Sessions[0]
	notes := strings.Join(s.Notes, "\n")
	if !strings.Contains(notes, "2 CPUs, from mpstat.log") {
		t.Errorf("notes %q", s.Notes)
	}
	withDisks := 0
	var util float64
	for i, sn := range s.Snapshots {
		if sn.Server.Version != "10.11.19-MariaDB-0+deb12u1" || sn.Server.Flavor != snapshot.FlavorMariaDB {
			t.Fatalf("server %+v", sn.Server)
		}
		if sn.Host == nil {
			continue
		}
		if sn.Host.NumCPU != 2 {
			t.Errorf("%s: %d CPUs", sn.Time.Format(time.TimeOnly), sn.Host.NumCPU)
		}
		if len(sn.Host.Disks) > 0 {
			withDisks++
		}
		if i > 0 {
			if r := snapshot.Delta(s.Snapshots[i-1], sn); r != nil && r.Host != nil {
				for _, d := range r.Host.Disks {
					util = max(util, d.UtilPercent)
				}
				if r.Host.CPU.Total() == 0 {
					t.Errorf("%s: a second without CPU figures (a disks-only host)", sn.Time.Format(time.TimeOnly))
				}
			}
		}
	}
	if withDisks < 8 || util < 50 {
		t.Errorf("%d snapshots with disks, highest util %.1f %%: iostat beside the loops not read", withDisks, util)
	}
	// TS-stamped /proc/meminfo and netstat -s loops beside: memory and the
	// TCP counters on their seconds, their rates between.
	withMem, withTCP, outSegs := 0, 0, 0.0
	for i, sn := range s.Snapshots {
		if h := sn.Host; h != nil && h.MemAvailable > 0 {
			withMem++
		}
		if h := sn.Host; h != nil && h.TCP != nil {
			withTCP++
			if r := snapshot.Delta(s.Snapshots[max(i-1, 0)], sn); i > 0 && r != nil && r.Host != nil && r.Host.TCP != nil {
				outSegs = max(outSegs, r.Host.TCP.OutSegs)
			}
		}
	}
	if withMem != 4 || withTCP != 4 || outSegs <= 0 {
		t.Errorf("%d snapshots with memory, %d with TCP counters, segments out %.0f/s: the loops beside not read", withMem, withTCP, outSegs)
	}
}

func TestMpstatIsNotIostat(t *testing.T) {
	mp := headLines([]byte("Linux 6.18.44-fc-v1045 (vm) \t12/01/26 \t_x86_64_\t(2 CPU)\n\n" +
		"04:38:32     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n"))
	if kindOf([]byte(strings.Join(mp, "\n"))) != kindMpstat {
		t.Errorf("mpstat read as %q", kindOf([]byte(strings.Join(mp, "\n"))))
	}
	for _, c := range []struct {
		text string
		want fileKind
	}{
		{"processor\t: 0\nvendor_id\t: AuthenticAMD\n\nprocessor\t: 1\n", kindCPUCount},
		{"16\n", kindCPUCount},
		{"Linux 6.1 (db) \t12/01/26 \t_x86_64_\t(8 CPU)\n\nDevice            r/s     rkB/s\nvda 1.0 2.0\n", kindIostat},
	} {
		if got := kindOf([]byte(c.text)); got != c.want {
			t.Errorf("%.30q: %q, want %q", c.text, got, c.want)
		}
	}
}

// Without anything giving the CPU count, the capture says so and the rules
// judging against the CPUs are not applicable (analyzers' tests); MariaDB's
// thread_pool_size stands in when nothing else does.
func TestCPUCountFromThreadPoolSize(t *testing.T) {
	tl := newTimeline(time.UTC)
	tl.hosts[1] = &snapshot.Host{}
	if note := tl.fillCPUs(); !strings.Contains(note, "unknown") || tl.hosts[1].NumCPU != 0 {
		t.Errorf("no count: %q, %d", note, tl.hosts[1].NumCPU)
	}
	tl.variables = map[string]string{"version": "10.11.6-MariaDB", "thread_pool_size": "12", "thread_handling": "one-thread-per-connection"}
	if note := tl.fillCPUs(); !strings.Contains(note, "thread_pool_size") || tl.hosts[1].NumCPU != 12 {
		t.Errorf("thread_pool_size: %q, %d", note, tl.hosts[1].NumCPU)
	}
	if n := threadPoolCPUs(map[string]string{"version": "10.11.6-MariaDB", "thread_pool_size": "4", "thread_handling": "pool-of-threads"}); n != 0 {
		t.Errorf("a configured thread pool's size taken as the CPU count: %d", n)
	}
}
