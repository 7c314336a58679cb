package importers

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

func importPtHost(t *testing.T) *Session {
	t.Helper()
	c, err := Import("testdata/ptstalk-host", Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	for _, skipped := range c.Skipped {
		if strings.Contains(skipped, "top") || strings.Contains(skipped, "netstat") || strings.Contains(skipped, "meminfo") {
			t.Errorf("skipped: %s", skipped)
		}
	}
	return &c.Sessions[0]
}

func snapAtUTC(t *testing.T, s *Session, clock string) *snapshot.Snapshot {
	t.Helper()
	want, _ := time.Parse(time.DateTime, "2026-12-06 "+clock)
	for _, sn := range s.Snapshots {
		if sn.Time.Equal(want) {
			return sn
		}
	}
	t.Fatalf("no snapshot at %s", clock)
	return nil
}

// testdata/ptstalk-host was taken on a shared 2-CPU test host while a shell
// loop burned a CPU beside several MariaDB servers: -procstat, -meminfo and
// -netstat_s are real TS-stamped copies of /proc/stat, /proc/meminfo and
// netstat -s (net-tools 2.10) taken once a second as pt-stalk's loop does;
// -top is top -bn3 -d2 (procps-ng 4) cut to each iteration's first ten
// processes; -ps is ps -eaF cut to five rows. -variables is written by
// hand: the datadir, socket and port that tell pid 30027 from the other
// servers, and the version. -netstat is two copies of netstat -antp from
// pt-stalk's collection of a busy server, its port and pid made this one's.

// A pt-stalk collection's -meminfo, -netstat_s, -top and -ps are read into
// the host: memory, TCP counters and their rates, the other processes' CPU
// (another server among them), mysqld's CPU against theirs, its resident
// size, and the load averages.
func TestPtStalkHostExtras(t *testing.T) {
	s := importPtHost(t)
	a, b := snapAtUTC(t, s, "04:14:34"), snapAtUTC(t, s, "04:14:35")
	h := a.Host
	if h.MemAvailable != 22437408<<10 || h.MemTotal == 0 {
		t.Errorf("meminfo: available %d total %d", h.MemAvailable, h.MemTotal)
	}
	if h.TCP == nil || h.TCP.OutSegs != 497854 || h.TCP.RetransSegs != 25 || h.TCP.InOctets == 0 {
		t.Errorf("netstat -s: %+v", h.TCP)
	}
	if h.LoadUnknown || h.Load1 != 8.08 {
		t.Errorf("load %v unknown %v, want top's 8.08", h.Load1, h.LoadUnknown)
	}
	// Top's %CPU is measured over the delay before the iteration that prints
	// it: 04:14:34's (compile 32.8 % first, five kept) stands for the seconds
	// from 04:14:31, 04:14:36's (ui.test 22.9 %) for those from 04:14:34. The
	// server (pid 30027, told from the others by its datadir) is not among them.
	early := snapAtUTC(t, s, "04:14:33").Host.Busiest
	if len(early) != infer.BusiestTop || early[0].Name != "compile" || math.Abs(early[0].CPUs-0.328) > 1e-9 {
		t.Errorf("04:14:33 busiest %+v, want compile at 32.8 %%", early)
	}
	if len(h.Busiest) == 0 || h.Busiest[0].Name != "ui.test" || math.Abs(h.Busiest[0].CPUs-0.229) > 1e-9 {
		t.Errorf("04:14:34 busiest %+v, want ui.test at 22.9 %%", h.Busiest)
	}
	for _, p := range append(early, h.Busiest...) {
		if p.PID == 30027 {
			t.Errorf("the server is among the other processes: %+v", h.Busiest)
		}
	}
	if h.Mysqld == nil || h.Mysqld.PID != 30027 || h.Mysqld.RSSBytes != 385424<<10 {
		t.Fatalf("mysqld %+v", h.Mysqld)
	}
	// -netstat: sysbench's 32 connections on the port, three of them with
	// answers unacknowledged; not the listeners, nor another server's.
	want := snapshot.ClientQueues{Connections: 32, Sending: 3, SendBytes: 12785, RecvBytes: 46}
	if q := h.Mysqld.Clients; q == nil || *q != want {
		t.Errorf("client queues %+v, want %+v", q, want)
	}
	r := snapshot.Delta(a, b).Host
	// TIME+ 0:28.46 at 04:14:34, 0:29.20 at 04:14:36: 0.37 CPUs a second.
	if r.Mysqld == nil || math.Abs(r.Mysqld.CPUs-0.37) > 1e-6 || r.Mysqld.OtherCPUs <= 0 {
		t.Errorf("mysqld rate %+v", r.Mysqld)
	}
	if r.TCP == nil || r.TCP.OutSegs <= 0 {
		t.Errorf("tcp rate %+v", r.TCP)
	}
	// 04:14:35 is measured by the same iteration as 04:14:34.
	if got := b.Host.Busiest; len(got) == 0 || got[0].PID != 3068 || got[0].CPUs != h.Busiest[0].CPUs {
		t.Errorf("04:14:35 busiest %+v", got)
	}
	if s.Approximate {
		t.Error("every part has its own clock, yet the session is approximate")
	}
}

func TestParseNetstatS(t *testing.T) {
	// An older net-tools' wording, with sections before and after Tcp.
	text := "Ip:\n    120593 total packets received\nTcp:\n    111 active connections openings\n" +
		"    98 passive connection openings\n    26 failed connection attempts\n    9 connection resets received\n" +
		"    34 connections established\n    120520 segments received\n    195626 segments send out\n" +
		"    5 segments retransmited\n    2 bad segments received.\n    39 resets sent\nUdp:\n    72 packets received\n" +
		"IpExt:\n    InOctets: 439776296\n    OutOctets: 171349818\n"
	got, ok := parseNetstatS(strings.Split(text, "\n"))
	want := snapshot.TCPCounters{ActiveOpens: 111, PassiveOpens: 98, AttemptFails: 26, EstabResets: 9, CurrEstab: 34,
		InSegs: 120520, OutSegs: 195626, RetransSegs: 5, InErrs: 2, OutRsts: 39, InOctets: 439776296, OutOctets: 171349818}
	if !ok || *got != want {
		t.Errorf("got %+v (%v)\nwant %+v", got, ok, want)
	}
	if _, ok := parseNetstatS([]string{"Udp:", "    72 packets received"}); ok {
		t.Error("no Tcp section, yet read")
	}
}

func TestTopParsing(t *testing.T) {
	lines := []string{
		"top - 23:59:58 up 3 days,  2:01,  1 user,  load average: 1,50, 0,75, 0,25",
		"KiB Mem : 16330912 total,   594464 free, 15736448 used,   264900 buff/cache",
		"KiB Swap:        0 total,        0 free,        0 used.  1234567 avail Mem",
		"",
		"  PID USER      PR  NI    VIRT    RES    SHR S  %CPU %MEM     TIME+ COMMAND",
		" 4242 mysql     20   0  10.2g   8.5g  12345 S 180,0 54.0  12345:12 mysqld",
		"  777 backup    20   0   12345   2.1m    456 R  95.5  0.1   1:02.50 xtrabackup --backup",
		"top - 00:00:01 up 3 days,  2:01,  1 user,  load average: 1.60, 0.80, 0.30",
	}
	var p topParser
	for _, l := range lines {
		if !p.line(l) {
			t.Errorf("not taken: %q", l)
		}
	}
	if len(p.samples) != 2 {
		t.Fatalf("%d samples", len(p.samples))
	}
	s := p.samples[0]
	if s.load != [3]float64{1.5, 0.75, 0.25} || s.memTotal != 16330912<<10 || s.memAvailable != 1234567<<10 {
		t.Errorf("summary %+v", s)
	}
	my, bk := s.procs[0], s.procs[1]
	if my.pid != 4242 || my.cpus != 1.8 || my.rss != uint64(8.5*(1<<30)) || my.cpuTime != 12345*60+12 {
		t.Errorf("mysqld row %+v", my)
	}
	if bk.name != "xtrabackup --backup" || bk.cpuTime != 62.5 || bk.rss != uint64(2202009) {
		t.Errorf("backup row %+v", bk)
	}
	// Past midnight, the clock goes on into the next day.
	base := time.Date(2026, 12, 5, 23, 59, 57, 0, time.UTC)
	at := topTimes(p.samples, base)
	if !at[1].Equal(time.Date(2026, 12, 6, 0, 0, 1, 0, time.UTC)) {
		t.Errorf("times %v", at)
	}
	for _, c := range []struct {
		in   string
		want float64
	}{{"0:09.93", 9.93}, {"123:45", 123*60 + 45}, {"26,03", 26*3600 + 3*60}, {"12h", 12 * 3600}, {"3d", 3 * 86400}, {"x", -1}} {
		if got := topTime(c.in); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("topTime(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestServerPIDAmongSeveral(t *testing.T) {
	ps := parsePs([]string{
		"UID        PID  PPID  C    SZ   RSS PSR STIME TTY          TIME CMD",
		"mysql     1431  1419  5 2147839057 95768 0 04:13 ?     00:00:01 /usr/sbin/mariadbd --datadir=/data/a2 --port=3307",
		"mysql    30027 30006 16 2147882842 385396 0 04:11 ?    00:00:27 /usr/sbin/mariadbd --datadir=/data/a --port=3306",
		"root      3119  3115 20   648  1680   0 04:14 ?        00:00:00 sh -c while :; do :; done",
	})
	if len(ps) != 3 || ps[0].name != "mariadbd" || ps[1].rss != 385396<<10 {
		t.Fatalf("ps %+v", ps)
	}
	// /data/a must not match /data/a2.
	if pid, why := serverPID(ps, nil, map[string]string{"datadir": "/data/a/"}); pid != 30027 || why != "" {
		t.Errorf("by datadir: %d %q", pid, why)
	}
	if pid, why := serverPID(ps, nil, map[string]string{"port": "3307"}); pid != 1431 || why != "" {
		t.Errorf("by port: %d %q", pid, why)
	}
	if pid, why := serverPID(ps, nil, nil); pid != 30027 || why == "" {
		t.Errorf("no variables: %d %q, want the largest with a note", pid, why)
	}
}
