package snapshot_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// benchPair is two consecutive samples one second apart: MariaDB 10.11's full
// SHOW GLOBAL STATUS (every numeric counter moved on) and a host with four
// disks and two interfaces, as a live tick gives Delta.
func benchPair(b *testing.B) (prev, cur *snapshot.Snapshot) {
	b.Helper()
	text, err := os.ReadFile("parse/testdata/status-tsv.txt")
	if err != nil {
		b.Fatal(err)
	}
	st, err := parse.ParseStatusTable(string(text))
	if err != nil {
		b.Fatal(err)
	}
	next := make(map[string]string, len(st))
	for k, v := range st {
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			v = strconv.FormatFloat(n+17, 'f', -1, 64)
		}
		next[k] = v
	}
	t0 := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	prev = &snapshot.Snapshot{Time: t0, Status: st, Host: benchHost(0)}
	cur = &snapshot.Snapshot{Time: t0.Add(time.Second), Status: next, Host: benchHost(1)}
	return prev, cur
}

func benchHost(step uint64) *snapshot.Host {
	h := &snapshot.Host{NumCPU: 2, CPU: snapshot.CPUTimes{User: 100 + float64(step), Idle: 900}, ContextSwitches: 1e6 + step*4000}
	for _, d := range []string{"sda", "sdb", "nvme0n1", "dm-0"} {
		h.Disks = append(h.Disks, snapshot.DiskCounters{Name: d, Reads: 1000 + step*50, Writes: 2000 + step*80,
			ReadBytes: 1 << 30, WriteBytes: 2<<30 + step<<20, IOTimeMS: 5000 + step*300})
	}
	for _, n := range []string{"lo", "eth0"} {
		h.Nets = append(h.Nets, snapshot.NetCounters{Name: n, RxBytes: 1 << 28, TxBytes: 1<<28 + step<<16})
	}
	return h
}

// BenchmarkDelta is the per-tick rate computation shared by live and replay.
func BenchmarkDelta(b *testing.B) {
	prev, cur := benchPair(b)
	b.ReportAllocs()
	for b.Loop() {
		r := snapshot.Delta(prev, cur)
		if r == nil || r.Status["Questions"] != 17 || len(r.Host.Disks) != 4 {
			b.Fatalf("unexpected rates: %+v", r)
		}
	}
}
