package parse

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestVmstatParserFixture(t *testing.T) {
	raw, err := os.ReadFile("testdata/vmstat-ptstalk.txt")
	if err != nil {
		t.Fatal(err)
	}
	var p VmstatParser
	var rows []VmstatRow
	for line := range strings.Lines(string(raw)) {
		row, ok, err := p.Line(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if ok {
			rows = append(rows, row)
		}
	}
	// 40 rows under two headers (vmstat repeats them without -n)
	if len(rows) != 40 {
		t.Fatalf("%d rows, want 40", len(rows))
	}
	// second line of figures: " 5  4      0 23257192 ... 7264 41154 51 49  0  0  0"
	want := VmstatRow{"r": 5, "b": 4, "free": 23257192, "bi": 236196, "in": 7264, "cs": 41154, "us": 51, "sy": 49, "id": 0, "st": 0}
	for k, v := range want {
		if rows[1][k] != v {
			t.Errorf("row 1 %s = %d, want %d", k, rows[1][k], v)
		}
	}
}

func TestVmstatParserLayouts(t *testing.T) {
	var p VmstatParser
	// vmstat -t: the header ends with a time zone, rows with a date and time.
	lines := []string{
		"procs -----------memory---------- ---swap-- -----io---- -system-- -------cpu------- -----timestamp-----",
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st gu                 UTC",
		" 3  1      0 100 200 300    8    4     1     2   10   20 30 20 40 10  0  0 2026-12-01 04:38:26",
	}
	var got VmstatRow
	for _, l := range lines {
		row, ok, err := p.Line(l)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			got = row
		}
	}
	if got["r"] != 3 || got["gu"] != 0 || got["wa"] != 10 || got["si"] != 8 {
		t.Errorf("row = %v", got)
	}
	if _, _, err := p.Line(" 1 2 3"); err == nil {
		t.Error("a short line was accepted")
	}
	if _, _, err := p.Line("kernel: oops"); err == nil {
		t.Error("text was accepted as figures")
	}
}

// Delta over the Hosts VmstatHost builds must give back vmstat's own figures.
func TestVmstatHostDeltaReproducesFigures(t *testing.T) {
	rows := []VmstatRow{
		{"r": 8, "b": 2, "si": 0, "so": 0, "in": 218, "cs": 587, "us": 35, "sy": 2, "id": 63},
		{"r": 14, "b": 0, "si": 40, "so": 8, "in": 7662, "cs": 37615, "us": 56, "sy": 44, "id": 0},
		{"r": 6, "b": 3, "in": 6709, "cs": 22652, "us": 53, "sy": 46, "wa": 1, "st": 1}, // sums to 101
	}
	seconds := []float64{1, 1, 2}
	var acc VmstatHost
	var snaps []*snapshot.Snapshot
	at := time.Date(2026, 12, 1, 4, 38, 26, 0, time.UTC)
	for i, r := range rows {
		at = at.Add(time.Duration(seconds[i] * float64(time.Second)))
		snaps = append(snaps, &snapshot.Snapshot{Time: at, Host: acc.Add(r, seconds[i])})
	}
	d := snapshot.Delta(snaps[0], snaps[1]).Host
	if !near(d.CPU.User, 56) || !near(d.CPU.System, 44) || d.CPU.Idle != 0 {
		t.Errorf("cpu = %+v, want us 56 sy 44 id 0", d.CPU)
	}
	if d.ContextSwitches != 37615 || d.Interrupts != 7662 || d.SwapIn != 10 || d.SwapOut != 2 {
		t.Errorf("cs %v in %v si %v so %v pages/s", d.ContextSwitches, d.Interrupts, d.SwapIn, d.SwapOut)
	}
	if snaps[1].Host.ProcsRunning != 14 || snaps[1].Host.ProcsBlocked != 0 {
		t.Errorf("r/b = %d/%d", snaps[1].Host.ProcsRunning, snaps[1].Host.ProcsBlocked)
	}
	d = snapshot.Delta(snaps[1], snaps[2]).Host
	if math.Abs(d.CPU.User-53) > 1 || math.Abs(d.CPU.IOWait-1) > 0.1 || d.ContextSwitches != 22652 {
		t.Errorf("over 2 s: cpu %+v cs %v", d.CPU, d.ContextSwitches)
	}
}

func FuzzVmstat(f *testing.F) {
	if raw, err := os.ReadFile("testdata/vmstat-ptstalk.txt"); err == nil {
		f.Add(string(raw))
	}
	f.Add(" r  b\n 1 2\nprocs\n")
	f.Fuzz(func(t *testing.T, text string) {
		var p VmstatParser
		var acc VmstatHost
		for line := range strings.Lines(text) {
			row, ok, err := p.Line(line)
			if ok && err == nil {
				if h := acc.Add(row, 1); h == nil {
					t.Fatal("Add returned nil")
				}
			}
		}
	})
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
