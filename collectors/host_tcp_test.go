package collectors

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestParseNetSNMPAndNetstat(t *testing.T) {
	snmp := "Ip: Forwarding DefaultTTL\nIp: 1 64\n" +
		"Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n" +
		"Tcp: 1 200 120000 -1 76 46 11 7 2 14072 9321 15 3 22 0\n" +
		"Udp: InDatagrams NoPorts\nUdp: 5 6\n"
	netstat := "TcpExt: SyncookiesSent\nTcpExt: 0\n" +
		"IpExt: InNoRoutes InTruncatedPkts InMcastPkts OutMcastPkts InBcastPkts OutBcastPkts InOctets OutOctets\n" +
		"IpExt: 0 0 0 0 0 0 430778624 716547\n"
	var got snapshot.TCPCounters
	if !parseNetSNMP([]byte(snmp), &got) {
		t.Fatal("no Tcp lines found")
	}
	if !parseNetNetstat([]byte(netstat), &got) {
		t.Fatal("no IpExt lines found")
	}
	want := snapshot.TCPCounters{ActiveOpens: 76, PassiveOpens: 46, AttemptFails: 11, EstabResets: 7, CurrEstab: 2,
		InSegs: 14072, OutSegs: 9321, RetransSegs: 15, InErrs: 3, OutRsts: 22, InOctets: 430778624, OutOctets: 716547}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	var none snapshot.TCPCounters
	if parseNetSNMP([]byte("Ip: Forwarding\nIp: 1\n"), &none) {
		t.Error("a file without Tcp lines was taken")
	}
}

// The live host sample carries the TCP counters and, per interface, the
// packets as well as the bytes.
func TestHostCollectsTCPAndNetPackets(t *testing.T) {
	h := &Host{}
	s := &snapshot.Snapshot{}
	if err := h.Collect(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	if s.Host.TCP == nil || s.Host.TCP.OutSegs == 0 {
		t.Fatalf("no TCP counters: %+v", s.Host.TCP)
	}
	var packets uint64
	for _, n := range s.Host.Nets {
		packets += n.RxPackets
	}
	if packets == 0 {
		t.Errorf("no interface received a packet: %+v", s.Host.Nets)
	}
}
