package importers

import (
	"math"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Delta over the counters iostat's reports become gives back iostat's own
// r/s, w/s and %util; the since-boot report is the base.
func TestIostatToDiskCounters(t *testing.T) {
	text := "Linux 6.18.44 (vm) \t12/01/26 \t_x86_64_\t(2 CPU)\n\n" +
		"12/01/26 04:38:31 AM\n" +
		"Device            r/s     rkB/s r_await     w/s     wkB/s w_await  aqu-sz  %util\n" +
		"vda            155.29   2657.37    0.27   80.17   2310.42    0.47    0.08   1.05\n\n" +
		"12/01/26 04:38:32 AM\n" +
		"avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n           40.00    0.00   10.00    5.00    0.00   45.00\n\n" +
		"Device            r/s     rkB/s r_await     w/s     wkB/s w_await  aqu-sz  %util\n" +
		"vda          15166.00 242780.00    0.10    2.00      8.00    0.50    1.50  55.05\n" +
		"sdb              1.00      4.00    2.00    0.00      0.00    0.00    0.00   0.10\n"
	reports, bad, first := parseIostat(text)
	if len(reports) != 2 || bad != 0 {
		t.Fatalf("%d reports, %d bad lines (%q)", len(reports), bad, first)
	}
	if want := time.Date(2026, 12, 1, 4, 38, 32, 0, time.UTC); !reports[1].Time.Equal(want) {
		t.Errorf("second report at %v", reports[1].Time)
	}
	var acc iostatDisks
	prev := &snapshot.Snapshot{Time: reports[0].Time, Host: &snapshot.Host{Disks: acc.Add(reports[0], 1)}}
	cur := &snapshot.Snapshot{Time: reports[1].Time, Host: &snapshot.Host{Disks: acc.Add(reports[1], 1)}}
	r := snapshot.Delta(prev, cur)
	if r == nil || r.Host == nil {
		t.Fatal("no host rates")
	}
	for _, d := range r.Host.Disks {
		if d.Name != "vda" {
			continue
		}
		if math.Abs(d.ReadsPerSec-15166) > 1 || math.Abs(d.WritesPerSec-2) > 1 || math.Abs(d.UtilPercent-55.05) > 0.2 || math.Abs(d.QueueDepth-1.5) > 0.01 {
			t.Errorf("vda rates %+v", d)
		}
	}
	if _, bad, _ := parseIostat("Device r/s\nvda x\n"); bad != 1 {
		t.Errorf("a row that is no figures was not counted")
	}
}
