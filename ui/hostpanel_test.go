package ui

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The host panel shows the network, what waits for the clients, mysqld's
// resident size and the kernel's pressure stalls when the source has them.
func TestHostPanelNetworkAndRSS(t *testing.T) {
	f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Host: &snapshot.Host{MemTotal: 100, MemAvailable: 50,
		Mysqld: &snapshot.ProcessCPU{PID: 7, RSSBytes: 3 << 30,
			Clients: &snapshot.ClientQueues{Connections: 1065, Sending: 14, SendBytes: 800 << 10}}}},
		Rates: &snapshot.Rates{Host: &snapshot.HostRates{
			Nets: []snapshot.NetRate{{Name: "eth0", RxBytes: 2 << 20, TxBytes: 1 << 20, RxDrops: 3}, {Name: "lo", RxBytes: 9 << 30}},
			TCP:  &snapshot.TCPRate{RetransSegs: 40, RetransPercent: 2.5}},
			Pressure: &snapshot.PressureRates{CPU: snapshot.StallRate{Some: 42}, IO: snapshot.StallRate{Some: 8, Full: 1.2}}}}
	text := strings.Join(hostLines(f, newHistory(10), 100, 12), "\n")
	for _, want := range []string{"mem 50% mysqld 3G", "net rx 2M/s tx 1M/s", "drops+errs 3/s", "retrans 40/s (2.5%)",
		"unacked 800K on 14/1065 conns", "stall cpu 42% io 8.0% (all 1.2%) mem 0.0%"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}
