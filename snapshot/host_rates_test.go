package snapshot

import (
	"math"
	"testing"
	"time"
)

// The network, TCP and mysqld-against-the-rest rates come from the same
// Delta as every other rate, so live and replay agree.
func TestDeltaHostNetworkTCPAndMysqld(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	prev := &Snapshot{Time: t0, Host: &Host{
		CPU:    CPUTimes{User: 100, System: 20, Idle: 300},
		Nets:   []NetCounters{{Name: "eth0", RxBytes: 1000, TxBytes: 2000, RxPackets: 10, TxPackets: 20, RxDrops: 1, TxErrors: 2}},
		TCP:    &TCPCounters{InSegs: 1000, OutSegs: 2000, RetransSegs: 10, InErrs: 1, InOctets: 5000},
		Mysqld: &ProcessCPU{PID: 7, UserSeconds: 50, SystemSeconds: 10, RSSBytes: 1 << 30},
	}}
	cur := &Snapshot{Time: t0.Add(2 * time.Second), Host: &Host{
		// 4 CPUs over 2 s: 8 CPU seconds, 6 of them busy.
		CPU:    CPUTimes{User: 105, System: 21, Idle: 302},
		Nets:   []NetCounters{{Name: "eth0", RxBytes: 3000, TxBytes: 2000, RxPackets: 30, TxPackets: 22, RxDrops: 5, TxErrors: 2}},
		TCP:    &TCPCounters{InSegs: 1400, OutSegs: 2400, RetransSegs: 30, InErrs: 3, InOctets: 9000},
		Mysqld: &ProcessCPU{PID: 7, UserSeconds: 51.5, SystemSeconds: 10.5, RSSBytes: 1<<30 + 4<<20},
	}}
	r := Delta(prev, cur).Host
	if len(r.Nets) != 1 {
		t.Fatalf("nets %+v", r.Nets)
	}
	n := r.Nets[0]
	if n.RxBytes != 1000 || n.RxPackets != 10 || n.TxPackets != 1 || n.RxDrops != 2 || n.TxErrors != 0 {
		t.Errorf("net rate %+v", n)
	}
	if r.TCP == nil || r.TCP.InSegs != 200 || r.TCP.OutSegs != 200 || r.TCP.RetransSegs != 10 ||
		r.TCP.InErrs != 1 || r.TCP.InOctets != 2000 || r.TCP.RetransPercent != 5 {
		t.Errorf("tcp rate %+v", r.TCP)
	}
	if m := r.Mysqld; m == nil || !near(m.CPUs, 1) || !near(m.OtherCPUs, 2) || !near(m.RSSGrowth, 2<<20) {
		t.Errorf("mysqld rate %+v, want 1 CPU, 2 other CPUs, 2 MiB/s", r.Mysqld)
	}

	// A restarted mysqld (new pid) or a host reboot (counters back) gives
	// no rate rather than a wrong one.
	cur.Host.Mysqld.PID = 8
	cur.Host.TCP.InSegs = 10
	r = Delta(prev, cur).Host
	if r.Mysqld != nil || r.TCP != nil {
		t.Errorf("after restart: mysqld %+v tcp %+v", r.Mysqld, r.TCP)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
