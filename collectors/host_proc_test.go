package collectors

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func readHostFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "host", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseProcStat(t *testing.T) {
	var h snapshot.Host
	parseProcStat(readHostFixture(t, "stat"), &h)
	// cpu  186772 0 92132 81921 1304 0 1123 0 0 0
	want := snapshot.CPUTimes{User: 1867.72, System: 921.32, Idle: 819.21, IOWait: 13.04, SoftIRQ: 11.23}
	if h.CPU != want {
		t.Errorf("CPU = %+v, want %+v", h.CPU, want)
	}
	if h.NumCPU != 2 || h.ContextSwitches != 17437375 || h.ProcsRunning != 13 || h.ProcsBlocked != 0 {
		t.Errorf("NumCPU %d ctxt %d running %d blocked %d", h.NumCPU, h.ContextSwitches, h.ProcsRunning, h.ProcsBlocked)
	}
	if h.Interrupts == 0 {
		t.Error("intr total not read")
	}
}

func TestParseVMStat(t *testing.T) {
	h := snapshot.Host{SwapInPages: 9, SwapOutPages: 9}
	parseVMStat(readHostFixture(t, "vmstat"), &h)
	if h.SwapInPages != 0 || h.SwapOutPages != 0 {
		t.Errorf("pswpin %d pswpout %d, want 0 0", h.SwapInPages, h.SwapOutPages)
	}
	parseVMStat([]byte("nr_free_pages 1\npswpin 120\npswpout 7\npswpin_extra 5\n"), &h)
	if h.SwapInPages != 120 || h.SwapOutPages != 7 {
		t.Errorf("pswpin %d pswpout %d, want 120 7", h.SwapInPages, h.SwapOutPages)
	}
}

func intern(b []byte) string { return string(b) }

func TestParseDiskstatsMachine(t *testing.T) {
	disks := parseDiskstats(readHostFixture(t, "diskstats"), nil, intern, nil)
	// loop0-7 are left out; vda and zram0 stay.
	if len(disks) != 2 || disks[0].Name != "vda" || disks[1].Name != "zram0" {
		t.Fatalf("disks = %+v", disks)
	}
	// 254 0 vda 80358 15957 3545930 32010 96201 84839 11052008 92146 0 95256 218023 … 15140 7209
	want := snapshot.DiskCounters{Name: "vda", Reads: 80358, ReadBytes: 3545930 * 512, ReadTimeMS: 32010,
		Writes: 96201, WriteBytes: 11052008 * 512, WriteMS: 92146, IOTimeMS: 95256, WeightedIOMS: 218023,
		Flushes: 15140, FlushMS: 7209}
	if disks[0] != want {
		t.Errorf("vda = %+v\nwant %+v", disks[0], want)
	}
}

func TestParseDiskstatsPartitions(t *testing.T) {
	text := "   8       0 sda 10 0 80 5 20 0 160 7 0 9 12\n" +
		"   8       1 sda1 4 0 32 2 8 0 64 3 0 4 5\n" +
		" 259       0 nvme0n1 1 0 8 1 1 0 8 1 0 1 2\n" +
		" 259       1 nvme0n1p1 1 0 8 1 1 0 8 1 0 1 2\n" +
		" 259       2 nvme0n10 1 0 8 1 1 0 8 1 0 1 2\n" +
		" 179       1 mmcblk0p1 1 0 8 1 1 0 8 1 0 1 2\n" + // its disk is not listed: kept
		" 253       1 dm-1 1 0 8 1 1 0 8 1 0 1 2\n" +
		" 253      10 dm-10 1 0 8 1 1 0 8 1 0 1 2\n" +
		"   1       0 ram0 1 0 8 1 1 0 8 1 0 1 2\n" +
		"   8      16 sdb 1 0 8\n" // short line of an old kernel: missing fields read 0
	var got []string
	for _, d := range parseDiskstats([]byte(text), nil, intern, nil) {
		got = append(got, d.Name)
	}
	want := []string{"sda", "nvme0n1", "nvme0n10", "mmcblk0p1", "dm-1", "dm-10", "sdb"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// TestParseDiskstatsLoops: a loop device is kept only when it holds a
// mounted filesystem that has been written to (a server's files on an
// image); unmounted loops and read-only mounted ones (snap's squashfs) stay
// out, and without a mount table every loop does.
func TestParseDiskstatsLoops(t *testing.T) {
	text := "   7       0 loop0 120 0 960 40 0 0 0 0 0 40 40\n" + // mounted, read only
		"   7       1 loop1 10 0 80 5 900 0 7200 300 0 200 310 0 0 0 0 450 1800\n" + // mounted, written
		"   7       2 loop2 10 0 80 5 900 0 7200 300 0 200 310\n" + // written, not mounted
		"   8       0 sda 10 0 80 5 20 0 160 7 0 9 12\n"
	mounted := func(dev []byte) bool { return string(dev) == "loop0" || string(dev) == "loop1" }
	var got []string
	for _, d := range parseDiskstats([]byte(text), nil, intern, mounted) {
		got = append(got, d.Name)
		if d.Name == "loop1" && (d.Flushes != 450 || d.FlushMS != 1800) {
			t.Errorf("loop1 flushes %d in %d ms, want 450 in 1800", d.Flushes, d.FlushMS)
		}
	}
	if fmt.Sprint(got) != "[loop1 sda]" {
		t.Errorf("kept %v, want [loop1 sda]", got)
	}
	if got := parseDiskstats([]byte(text), nil, intern, nil); len(got) != 1 || got[0].Name != "sda" {
		t.Errorf("without a mount table kept %+v, want sda alone", got)
	}
}

func TestPartitionParent(t *testing.T) {
	cases := map[string]string{
		"sda1": "sda", "sdab12": "sdab", "vdb2": "vdb", "xvda1": "xvda", "nvme0n1p2": "nvme0n1",
		"mmcblk0p1": "mmcblk0", "md0p1": "md0", "sda": "", "nvme0n1": "", "dm-3": "", "md127": "",
		"zram0": "", "sr0": "", "p1": "", "1": "",
	}
	for name, want := range cases {
		if got := partitionParent(name); got != want {
			t.Errorf("partitionParent(%q) = %q, want %q", name, got, want)
		}
	}
}

func FuzzParseProc(f *testing.F) {
	f.Add([]byte("cpu  1 2 3\nintr\nctxt x\n 8 0 sda 1 2\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var h snapshot.Host
		parseProcStat(b, &h)
		parseVMStat(b, &h)
		parseDiskstats(b, nil, intern, nil)
	})
}
