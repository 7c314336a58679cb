package infer

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// pileupProcesslist is a metadata-lock and table-lock pile-up on a busy
// server: 2,000 threads running statements on 50 tables, an ALTER queued on
// shop.t0 with 300 statements behind it, and 200 readers waiting for a
// MyISAM table's lock.
func pileupProcesslist() []snapshot.Process {
	var ps []snapshot.Process
	id := int64(1)
	add := func(secs int64, state, info string) {
		ps = append(ps, snapshot.Process{ID: id, User: "app", DB: "shop", Command: "Query", TimeMS: secs * 1000, State: state, Info: info})
		id++
	}
	for i := range 2000 {
		add(int64(i%30), "Sending data", fmt.Sprintf("SELECT a.id, b.v FROM shop.t%d a JOIN shop.u%d b ON b.id = a.id WHERE a.k = %d", i%50, i%7, i))
	}
	add(60, "Waiting for table metadata lock", "ALTER TABLE shop.t0 ADD COLUMN note INT")
	for i := range 300 {
		add(int64(i%50), "Waiting for table metadata lock", fmt.Sprintf("SELECT v FROM shop.t0 WHERE id = %d", i))
	}
	add(40, "Updating", "UPDATE shop.m SET v = v + 1")
	for i := range 200 {
		add(int64(i%30), "Waiting for table level lock", fmt.Sprintf("SELECT COUNT(*) FROM shop.m WHERE v > %d", i))
	}
	return ps
}

// BenchmarkLockInference is the lock collector's inference for one frame
// of that pile-up, without a lock list (holders inferred). Measured on the
// 2-core test machine (shared, loaded): 843-883 ms, 81 MB and 7.7 M
// allocations per frame when every waiter re-parsed every running
// statement; 5.6-8.8 ms, 1.3 MB and 49,000 allocations with each statement
// parsed once per frame and the running ones indexed by table
// (LockInference).
func BenchmarkLockInference(b *testing.B) {
	ps := pileupProcesslist()
	b.ReportAllocs()
	for b.Loop() {
		li := NewLockInference(ps) // once per frame, as the collector does
		li.MetadataWaits(nil, nil)
		li.TableWaits(nil)
		GlobalWaits(ps, nil)
	}
}
