package analyzers

import (
	"slices"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// findingAt evaluates snaps and returns the standing finding id at the end.
func findingAt(t *testing.T, snaps []*snapshot.Snapshot, id string) (*snapshot.Finding, []snapshot.Finding) {
	t.Helper()
	e := NewEngine(DefaultConfig())
	fs := frames(snaps)
	var got []snapshot.Finding
	for i := range fs {
		got, _ = e.Evaluate(fs[:i+1])
	}
	for i := range got {
		if got[i].ID == id {
			return &got[i], got
		}
	}
	return nil, got
}

func TestCauseFullScanUpdateBehindTableLocks(t *testing.T) {
	waiter := func(id int64, table string) snapshot.Process {
		return query(id, 2, "Waiting for table level lock", "SELECT * FROM "+table+" WHERE id = 7")
	}
	scan := messagesPlan("ALL", "", 400000)
	cases := []struct {
		name   string
		waiter snapshot.Process
		linked bool
	}{
		{"waiters want the scanned table", waiter(9, "app.messages"), true},
		{"waiters want the same table without schema", waiter(9, "messages"), true},
		{"waiters on another table", waiter(9, "app.users"), false},
	}
	for _, c := range cases {
		snaps := series(8, scan, shortScans(3), procs(c.waiter, query(10, 2, "Waiting for table level lock",
			"SELECT * FROM "+c.waiter.Info[14:])))
		f, all := findingAt(t, snaps, IDTableLockContention)
		if f == nil {
			t.Fatalf("%s: no table_lock_contention in %v", c.name, all)
		}
		if got := slices.Contains(f.CausedBy, IDFullScanUpdate); got != c.linked {
			t.Errorf("%s: caused_by %v, want linked %v", c.name, f.CausedBy, c.linked)
		}
		if c.linked {
			if !slices.Equal(f.CauseThreads, []int64{100, 101, 102}) {
				t.Errorf("%s: cause threads %v", c.name, f.CauseThreads)
			}
			rc := infer.RootCauses(all)
			if len(rc) != 1 || rc[0].ID != IDFullScanUpdate || !slices.Contains(rc[0].Effects, IDTableLockContention) {
				t.Errorf("%s: root causes %+v", c.name, rc)
			}
		}
	}
}

// The seed incident sampled: a short scan caught in one sample of five, the
// readers queued behind it only then. At a sample that sees neither, both
// findings stand on the window and the link holds on the waiters last seen.
func TestCauseFullScanUpdateBehindIntermittentTableLocks(t *testing.T) {
	caught := []int{0, 5, 10}
	convoy := func(i int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(int64(200+i), 0, "Updating", shortScanSQL))
		for k := range 6 {
			s.Processlist = append(s.Processlist, query(int64(10+k), 0, "Waiting for table level lock",
				"SELECT * FROM app.messages WHERE id = 7"))
		}
	}
	snaps := series(13, messagesPlan("ALL", "", 400000), at(caught, convoy))
	f, all := findingAt(t, snaps, IDTableLockContention)
	if f == nil {
		t.Fatalf("no table_lock_contention in %v", all)
	}
	if !slices.Contains(f.CausedBy, IDFullScanUpdate) || !slices.Equal(f.CauseThreads, []int64{210}) {
		t.Errorf("caused_by %v threads %v, want full_scan_update's last thread 210", f.CausedBy, f.CauseThreads)
	}
	rc := infer.RootCauses(all)
	if len(rc) != 1 || !strings.Contains(rc[0].Line(), "act on thread 210") {
		t.Errorf("root causes %+v", rc)
	}
	// The same queue on another table is not linked.
	other := series(13, messagesPlan("ALL", "", 400000), at(caught, func(i int, s *snapshot.Snapshot) {
		convoy(i, s)
		for k := range s.Processlist {
			s.Processlist[k].Info = strings.Replace(s.Processlist[k].Info, "FROM app.messages", "FROM app.users", 1)
		}
	}))
	if f, all := findingAt(t, other, IDTableLockContention); f == nil || len(f.CausedBy) != 0 {
		t.Errorf("other table: %+v in %v", f, all)
	}
}

func TestCauseFullScanUpdateBehindQueryCache(t *testing.T) {
	scan := messagesPlan("ALL", "", 400000)
	qc := func(table string) edit {
		return procs(query(20, 0.1, qcWaitState, "SELECT body FROM "+table+" WHERE id = 3"),
			query(21, 0.1, qcWaitState, "SELECT body FROM "+table+" WHERE id = 4"))
	}
	for _, c := range []struct {
		table  string
		linked bool
	}{{"app.messages", true}, {"app.users", false}} {
		snaps := series(8, scan, shortScans(3), qcOn, qc(c.table))
		f, all := findingAt(t, snaps, IDQueryCacheContention)
		if f == nil {
			t.Fatalf("%s: no query_cache_contention in %v", c.table, all)
		}
		if got := slices.Contains(f.CausedBy, IDFullScanUpdate); got != c.linked {
			t.Errorf("%s: caused_by %v, want linked %v", c.table, f.CausedBy, c.linked)
		}
	}
}

func TestCauseLongTransactionBehindRowLockWaits(t *testing.T) {
	holder := trx(snapshot.InnoDBTrx{ID: "500", ActiveSeconds: 40, ThreadID: 7, RowLocks: 1})
	waiters := func(i int, s *snapshot.Snapshot) {
		for k := int64(0); k < 10; k++ {
			trx(snapshot.InnoDBTrx{ID: "60" + string(rune('0'+k)), ActiveSeconds: 12, LockWait: true,
				LockWaitSeconds: 12, ThreadID: 20 + k, Query: "UPDATE acct SET bal = bal - 1 WHERE id = 1"})(i, s)
		}
	}
	snaps := series(3, holder, waiters, procs(sleeping(7, "batch")))
	f, all := findingAt(t, snaps, IDRowLockWaits)
	if f == nil || !slices.Contains(f.CausedBy, IDLongTransaction) || !slices.Equal(f.CauseThreads, []int64{7}) {
		t.Fatalf("row_lock_waits = %+v (all %v)", f, all)
	}
	rc := infer.RootCauses(all)
	if len(rc) != 1 || rc[0].ID != IDLongTransaction || rc[0].Threads[0] != 7 {
		t.Fatalf("root causes %+v", rc)
	}
	if line := rc[0].Line(); !strings.Contains(line, "root cause: transaction open for 42 s on idle connection 7") ||
		!strings.Contains(line, "act on thread 7") || !strings.Contains(line, "10 transactions wait for row locks") {
		t.Errorf("line %q", line)
	}

	// A waiter on someone else: the long transaction holds no row locks.
	reader := trx(snapshot.InnoDBTrx{ID: "400", ActiveSeconds: 400, ThreadID: 5})
	other := trx(snapshot.InnoDBTrx{ID: "501", ActiveSeconds: 30, ThreadID: 8, RowLocks: 2})
	f, all = findingAt(t, series(3, reader, other, waiters), IDRowLockWaits)
	if f == nil || slices.Contains(f.CausedBy, IDLongTransaction) {
		t.Errorf("row_lock_waits must not be pinned on an unrelated old reader: %+v (all %v)", f, all)
	}
}

func TestCauseLongTransactionBehindMetadataLocks(t *testing.T) {
	holder := trx(snapshot.InnoDBTrx{ID: "500", ActiveSeconds: 400, ThreadID: 7})
	ddl := procs(sleeping(7, "report"), query(30, 20, mdlState, "ALTER TABLE shop.items ADD c2 INT"),
		query(31, 10, mdlState, "SELECT * FROM shop.items WHERE id = 1"))
	f, all := findingAt(t, series(6, holder, ddl), IDMetadataLockPileup)
	if f == nil || !slices.Contains(f.CausedBy, IDLongTransaction) {
		t.Fatalf("metadata_lock_pileup = %+v (all %v)", f, all)
	}
	young := trx(snapshot.InnoDBTrx{ID: "500", ActiveSeconds: 2, ThreadID: 7})
	f, _ = findingAt(t, series(6, young, ddl), IDMetadataLockPileup)
	if f != nil && slices.Contains(f.CausedBy, IDLongTransaction) {
		t.Errorf("a transaction younger than the wait cannot hold the lock: %+v", f)
	}
}

func TestCauseStatementsBehindCPU(t *testing.T) {
	scan := messagesPlan("ALL", "", 400000)
	busyHost := cpuLoad(4, 9, 5)
	mysqld := func(share float64) edit {
		return func(i int, s *snapshot.Snapshot) {
			// Busy CPU time grows 95 s per sample (4 CPUs' 100 % minus 5 idle).
			s.Host.Mysqld = &snapshot.ProcessCPU{PID: 42, UserSeconds: share / 100 * 95 * float64(i)}
		}
	}
	f, all := findingAt(t, series(12, scan, shortScans(3), busyHost, mysqld(90)), IDCPUSaturation)
	if f == nil || !slices.Contains(f.CausedBy, IDFullScanUpdate) {
		t.Fatalf("cpu_saturation = %+v (all %v)", f, all)
	}
	mustContain(t, *f, "mysqld (pid 42) uses 90 % of the busy CPU time")
	f, all = findingAt(t, series(12, scan, shortScans(3), busyHost, mysqld(10)), IDCPUSaturation)
	if f == nil || len(f.CausedBy) != 0 {
		t.Fatalf("cpu_saturation by others = %+v (all %v)", f, all)
	}
	mustContain(t, *f, "CPU saturated by other processes, not mysqld", "uses only 10 %", "other processes")
}

// A replay that jumps into the middle (the engine primes from the window)
// reaches the same links as the live run that stepped through every frame.
func TestCausesSameInReplay(t *testing.T) {
	scan := messagesPlan("ALL", "", 400000)
	snaps := series(12, scan, shortScans(3), procs(query(9, 2, "Waiting for table level lock",
		"SELECT * FROM app.messages WHERE id = 7")))
	fs := frames(snaps)
	live := NewEngine(DefaultConfig())
	var want []snapshot.Finding
	for i := range fs {
		want, _ = live.Evaluate(fs[:i+1])
	}
	jumped, _ := NewEngine(DefaultConfig()).Evaluate(fs)
	if len(want) == 0 || len(jumped) != len(want) {
		t.Fatalf("live %v, replay %v", want, jumped)
	}
	for i := range want {
		if want[i].ID != jumped[i].ID || !slices.Equal(want[i].CausedBy, jumped[i].CausedBy) {
			t.Errorf("%s caused by %v live, %v in replay", want[i].ID, want[i].CausedBy, jumped[i].CausedBy)
		}
	}
	if f, _ := findingAt(t, snaps, IDTableLockContention); f == nil || len(f.CausedBy) == 0 {
		t.Errorf("no link to compare: %+v", f)
	}
}
