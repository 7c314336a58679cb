package collectors

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestHostCollectorImplementsCollector(t *testing.T) {
	var c Collector = &Host{}
	if c.Name() != snapshot.CollectorHost {
		t.Errorf("Name() = %q", c.Name())
	}
}

func TestHostCollectFromTestdata(t *testing.T) {
	h := &Host{ProcRoot: "testdata/host"}
	s := &snapshot.Snapshot{Server: snapshot.ServerInfo{Address: "/run/mysqld/mysqld.sock"}}
	if err := h.Collect(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	got := s.Host
	if got == nil || got.Remote || got.ContextSwitches != 17437375 || len(got.Disks) != 2 {
		t.Fatalf("host = %+v", got)
	}
	if got.MemTotal == 0 || got.Load1 < 0 || len(got.Nets) == 0 {
		t.Errorf("gopsutil parts missing: mem %d nets %d", got.MemTotal, len(got.Nets))
	}
	if got.TCP == nil || got.TCP.RetransSegs != 15 || got.TCP.InOctets != 0 {
		t.Errorf("tcp = %+v, want net/snmp's 15 retransmits and no octets (no net/netstat)", got.TCP)
	}
}

func TestHostCollectRemoteReadsNothing(t *testing.T) {
	for _, h := range []*Host{
		{ProcRoot: "/nonexistent"},               // decided from the address
		{Remote: true, ProcRoot: "/nonexistent"}, // forced
	} {
		s := &snapshot.Snapshot{Server: snapshot.ServerInfo{Address: "192.0.2.10:3306"}}
		if err := h.Collect(context.Background(), s); err != nil {
			t.Fatalf("remote collect read the monitor's /proc: %v", err)
		}
		if s.Host == nil || !s.Host.Remote || s.Host.CPU.Total() != 0 || len(s.Host.Disks) != 0 {
			t.Errorf("host = %+v", s.Host)
		}
	}
}

func TestHostCollectReportsMissingProc(t *testing.T) {
	h := &Host{ProcRoot: t.TempDir()}
	s := &snapshot.Snapshot{}
	if err := h.Collect(context.Background(), s); err == nil {
		t.Error("no error for a procfs without stat/vmstat/diskstats")
	}
	if s.Host == nil || s.Host.MemTotal == 0 {
		t.Error("parts that worked were not kept")
	}
}

func TestAddressMayBeLocal(t *testing.T) {
	cases := map[string]bool{
		"": true, "/var/run/mysqld/mysqld.sock": true, "unix(/tmp/m.sock)": true, "mysql.sock": true, "@mysqld": true,
		"localhost:3306": true, "LOCALHOST": true, "127.0.0.1:3306": true, "127.8.9.10": true,
		"[::1]:3306": true, "tcp(127.0.0.1:3307)": true, "0.0.0.0:3306": true,
		"192.0.2.10:3306": false, "[2001:db8::1]:3306": false, "tcp(203.0.113.5:3306)": false,
		"no-such-host.invalid:3306": false,
	}
	for addr, want := range cases {
		if got := addressMayBeLocal(addr); got != want {
			t.Errorf("addressMayBeLocal(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestAddressMayBeLocalOwnInterfaceAddress(t *testing.T) {
	ip := firstNonLoopbackIP(t)
	if !addressMayBeLocal(ip + ":3306") {
		t.Errorf("%s is this machine's address but counted as remote", ip)
	}
}

// TestHostDeltaOnRealSamples checks the collector against snapshot.Delta with
// two real samples of this machine.
func TestHostDeltaOnRealSamples(t *testing.T) {
	h := &Host{}
	sample := func() *snapshot.Snapshot {
		s := &snapshot.Snapshot{Time: time.Now()}
		if err := h.Collect(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	prev := sample()
	burnCPU(200 * time.Millisecond)
	cur := sample()
	r := snapshot.Delta(prev, cur)
	if r == nil || r.Host == nil {
		t.Fatal("no host rates")
	}
	if sum := r.Host.CPU.Total(); sum < 99 || sum > 101 {
		t.Errorf("CPU percent sums to %.2f, want ~100 (%+v)", sum, r.Host.CPU)
	}
	if r.Host.CPU.User+r.Host.CPU.System <= 0 {
		t.Errorf("busy loop not seen: %+v", r.Host.CPU)
	}
	if r.Host.ContextSwitches <= 0 {
		t.Errorf("context switches/s = %v", r.Host.ContextSwitches)
	}
	if len(r.Host.Disks) == 0 {
		t.Error("no disk rates")
	}
	for _, d := range r.Host.Disks {
		if d.UtilPercent < 0 || d.UtilPercent > 100 {
			t.Errorf("%s util %.1f%% out of 0..100", d.Name, d.UtilPercent)
		}
	}
}

func burnCPU(d time.Duration) {
	x := 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := range 10000 {
			x += i
		}
	}
	_ = x
}

func BenchmarkHostCollect(b *testing.B) {
	h := &Host{}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s := &snapshot.Snapshot{}
		if err := h.Collect(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHostProcOnly(b *testing.B) {
	h := &Host{}
	b.ReportAllocs()
	for b.Loop() {
		out := &snapshot.Host{}
		_ = h.readProc("stat", func(d []byte) { parseProcStat(d, out) })
		_ = h.readProc("vmstat", func(d []byte) { parseVMStat(d, out) })
		_ = h.readProc("diskstats", func(d []byte) { out.Disks = parseDiskstats(d, nil, h.deviceName, h.mountedLoop) })
	}
}

func firstNonLoopbackIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	t.Skip("no non-loopback IPv4 address")
	return ""
}
