package collectors

import (
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// fakeProc is a procfs tree a test writes: processes with names, sockets
// and threads.
type fakeProc struct {
	t    testing.TB
	root string
}

func newFakeProc(t testing.TB) *fakeProc {
	f := &fakeProc{t: t, root: t.TempDir()}
	f.write("net/unix", "Num       RefCount Protocol Flags    Type St Inode Path\n")
	f.write("net/tcp", "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n")
	return f
}

func (f *fakeProc) write(name, text string) {
	f.t.Helper()
	p := filepath.Join(f.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fakeProc) appendTo(name, text string) {
	b, _ := os.ReadFile(filepath.Join(f.root, name))
	f.write(name, string(b)+text)
}

// process adds pid with a name and descriptors on the given socket inodes.
func (f *fakeProc) process(pid int, comm string, sockets ...int) {
	dir := strconv.Itoa(pid)
	f.write(dir+"/comm", comm+"\n")
	os.MkdirAll(filepath.Join(f.root, dir, "fd"), 0o755)
	for i, ino := range sockets {
		os.Symlink("socket:["+strconv.Itoa(ino)+"]", filepath.Join(f.root, dir, "fd", strconv.Itoa(10+i)))
	}
	os.Symlink("/dev/null", filepath.Join(f.root, dir, "fd", "0"))
}

// task adds a thread with CPU ticks and bytes read (tid 0: the process).
func (f *fakeProc) task(pid int, tid int64, comm string, cpu, read uint64) {
	dir := strconv.Itoa(pid)
	if tid != 0 {
		dir += "/task/" + strconv.FormatInt(tid, 10)
		f.write(dir+"/comm", comm+"\n")
	}
	f.write(dir+"/stat", strconv.FormatInt(tid, 10)+" ("+comm+") S 1 1 1 0 -1 0 0 0 0 0 "+
		strconv.FormatUint(cpu, 10)+" 0 0 0 20 0 1 0 5000 0 0\n")
	f.write(dir+"/io", "rchar: 1\nwchar: 1\nread_bytes: "+strconv.FormatUint(read, 10)+"\nwrite_bytes: 0\n")
}

func TestThreadLabel(t *testing.T) {
	cases := []struct{ ps, comm, want string }{
		{"thread/innodb/page_flush_coordinator_thread", "", "page cleaner"},
		{"thread/innodb/srv_purge_thread", "", "purge"},
		{"thread/innodb/srv_worker_thread", "", "purge"},
		{"thread/innodb/io_read_thread", "", "I/O"},
		{"thread/innodb/log_writer_thread", "", "redo log"},
		{"thread/sql/slave_sql", "", "replication"},
		{"thread/sql/main", "", "main"},
		{"thread/mysqlx/acceptor_network", "", "acceptor network"},
		{"", "ib_pg_flush_co", "page cleaner"},
		{"", "ib_io_rd-3", "I/O"},
		{"", "iou-wrk-4242", "I/O"},
		{"", "ib_fts_opt-3", "fulltext"},
		{"", "xpl_worker-2", "xpl_worker"},
		{"", "mariadbd", ""},
		{"", "mysqld", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		if got := threadLabel(c.ps, c.comm); got != c.want {
			t.Errorf("threadLabel(%q, %q) = %q, want %q", c.ps, c.comm, got, c.want)
		}
	}
}

// tableFromText reads mysql -B output (tabs, NULL, # comments) as a result.
func tableFromText(t *testing.T, path string) *table {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(line, "\t")
		if tb.cols == nil {
			tb.cols = cells
			continue
		}
		row := make([]sql.NullString, len(cells))
		for i, c := range cells {
			row[i] = sql.NullString{String: c, Valid: c != "NULL"}
		}
		tb.rows = append(tb.rows, row)
	}
	return tb
}

func TestThreadMapFromMySQLPerfSchema(t *testing.T) {
	m := threadMap{conns: map[int64]connThread{}, tids: map[int64]bool{}, names: map[int64]string{}}
	m.addPerfSchema(tableFromText(t, "testdata/mysql80_ps_threads.txt"))
	if got := m.conns[8]; got != (connThread{tid: 5917, memory: 1349856}) {
		t.Errorf("connection 8: %+v", got)
	}
	if len(m.conns) != 5 || m.shared {
		t.Errorf("conns %+v shared %v", m.conns, m.shared)
	}
	if got := threadLabel(m.names[5871], "ib_pg_flush_co"); got != "page cleaner" {
		t.Errorf("5871 is %q", got)
	}
	if _, ok := m.names[0]; ok {
		t.Error("a thread without an OS id was kept")
	}
	ps := []snapshot.Process{{ID: 9}, {ID: 99}}
	m.apply(ps)
	if ps[0].OSThread != 5918 || ps[0].MemoryBytes != 99218 || ps[1].OSThread != 0 {
		t.Errorf("applied %+v", ps)
	}
}

func TestThreadMapSharedThreads(t *testing.T) {
	m := threadMap{conns: map[int64]connThread{}, tids: map[int64]bool{}, names: map[int64]string{}}
	m.addConn(5, 100, 70000)
	m.addConn(6, 100, 70000)
	if !m.shared {
		t.Error("two connections on one thread is a thread pool")
	}
}

func TestThreadPoolIn(t *testing.T) {
	cases := []struct {
		vars   map[string]string
		flavor string
		pool   bool
	}{
		{map[string]string{"thread_handling": "one-thread-per-connection", "thread_pool_size": "2"}, snapshot.FlavorMariaDB, false},
		{map[string]string{"thread_handling": "pool-of-threads"}, snapshot.FlavorMariaDB, true},
		{map[string]string{"thread_handling": "pool-of-threads"}, snapshot.FlavorPercona, true},
		{map[string]string{"thread_pool_algorithm": "0"}, snapshot.FlavorMySQL, true},
		{nil, snapshot.FlavorMySQL, false},
	}
	for _, c := range cases {
		if got := threadPoolIn(c.vars, c.flavor) != ""; got != c.pool {
			t.Errorf("%v %s: pool %v", c.vars, c.flavor, got)
		}
	}
}

// TestReadTasksChoosesThreads checks which threads a tick reads: busy and
// recently busy connections, the monitor's own, and the background ones by
// name; not a connection idle for longer than two ticks.
func TestReadTasksChoosesThreads(t *testing.T) {
	f := newFakeProc(t)
	f.process(30, "mariadbd")
	f.task(30, 0, "mariadbd", 900, 1<<30)
	f.task(30, 30, "mariadbd", 10, 0)   // main
	f.task(30, 31, "iou-wrk-30", 5, 0)  // background
	f.task(30, 101, "mariadbd", 400, 0) // connection 1: busy
	f.task(30, 102, "mariadbd", 300, 0) // connection 2: just went idle
	f.task(30, 103, "mariadbd", 200, 0) // connection 3: idle for long
	f.task(30, 104, "mariadbd", 2, 0)   // the monitor
	ts := &threadStats{Root: f.root, interval: time.Second, pid: 30}
	ts.tmap = threadMap{conns: map[int64]connThread{1: {101, 5}, 2: {102, 6}, 3: {103, 7}, 9: {104, 8}},
		tids: map[int64]bool{101: true, 102: true, 103: true, 104: true}, names: map[int64]string{}}
	ts.listBackground()
	s := &snapshot.Snapshot{Processlist: []snapshot.Process{
		{ID: 1, Command: "Query", TimeMS: 60_000}, {ID: 2, Command: "Sleep", TimeMS: 1000},
		{ID: 3, Command: "Sleep", TimeMS: 30_000}, {ID: 4, Command: "Query"},
	}}
	ts.tmap.apply(s.Processlist)
	proc, err := ts.readTask(0)
	if err != nil || proc.CPUTicks != 900 || proc.ReadBytes != 1<<30 {
		t.Fatalf("process %+v %v", proc, err)
	}
	s.Threads = &snapshot.Threads{PID: 30}
	s.Threads.Tasks = ts.readTasks(busyThreads(s.Processlist, ts.busy), ts.ownTID(9))
	got := map[int64]snapshot.TaskCounters{}
	for _, c := range s.Threads.Tasks {
		got[c.TID] = c
	}
	want := map[int64]snapshot.TaskCounters{
		101: {TID: 101, Conn: 1, CPUTicks: 400}, 102: {TID: 102, Conn: 2, CPUTicks: 300},
		104: {TID: 104, Name: "mytop-go", CPUTicks: 2},
		30:  {TID: 30, CPUTicks: 10}, 31: {TID: 31, Name: "I/O", CPUTicks: 5},
	}
	if len(got) != len(want) {
		t.Errorf("read %+v, want %+v", got, want)
	}
	for tid, w := range want {
		if got[tid] != w {
			t.Errorf("thread %d: %+v, want %+v", tid, got[tid], w)
		}
	}
	// The background thread 31 now serves connection 5, which the map
	// learnt of before the background list was made again: read once.
	ts.tmap.conns[5], ts.tmap.tids[31] = connThread{tid: 31}, true
	s.Processlist = append(s.Processlist, snapshot.Process{ID: 5, Command: "Query"})
	ts.tmap.apply(s.Processlist)
	s.Threads.Tasks = ts.readTasks(busyThreads(s.Processlist, ts.busy), ts.ownTID(9))
	n := 0
	for _, c := range s.Threads.Tasks {
		if c.TID == 31 {
			n++
			if c.Conn != 5 {
				t.Errorf("thread 31 read as %+v", c)
			}
		}
	}
	if n != 1 {
		t.Errorf("thread 31 read %d times", n)
	}
}

func TestMapPeriodsGrowWithConnections(t *testing.T) {
	for _, c := range []struct {
		conns          int
		every, whenNew time.Duration
	}{{0, 30 * time.Second, 2 * time.Second}, {1000, 30 * time.Second, 2 * time.Second},
		{5000, 150 * time.Second, 10 * time.Second}} {
		if e, n := mapPeriods(c.conns); e != c.every || n != c.whenNew {
			t.Errorf("%d connections: %v %v, want %v %v", c.conns, e, n, c.every, c.whenNew)
		}
	}
}

// TestPrefetchedReads: the reads begun at the tick's start cover mysqld and
// the connections busy in the last tick; the tick's own processlist adds the
// ones busy since, and drops a background thread the map now gives to a
// connection.
func TestPrefetchedReads(t *testing.T) {
	const sock = "/run/mysqld/mysqld.sock"
	f := newFakeProc(t)
	f.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 "+sock+"\n")
	f.process(30, "mariadbd", 7001)
	f.task(30, 0, "mariadbd", 900, 1<<30)
	f.task(30, 31, "iou-wrk-30", 5, 0)  // background, then connection 3's
	f.task(30, 101, "mariadbd", 400, 0) // connection 1: busy last tick
	f.task(30, 102, "mariadbd", 300, 0) // connection 2: busy since
	f.task(30, 104, "mariadbd", 2, 0)   // the monitor
	ts := newThreadStats(nil, time.Second, newServerProc(f.root, sock))
	ts.pid, ts.own = 30, 9
	ts.tmap = threadMap{conns: map[int64]connThread{1: {101, 5}, 2: {102, 6}, 9: {104, 8}},
		tids: map[int64]bool{101: true, 102: true, 104: true}, names: map[int64]string{}}
	ts.listBackground()
	now := time.Now()
	prev := &snapshot.Snapshot{Threads: &snapshot.Threads{PID: 30}, Processlist: []snapshot.Process{
		{ID: 1, Command: "Query", OSThread: 101}, {ID: 2, Command: "Sleep", TimeMS: 60_000, OSThread: 102}}}
	ts.begin(now, prev)
	pre, ok := ts.join()
	if !ok || pre.err != nil || pre.pid != 30 || pre.proc.CPUTicks != 900 {
		t.Fatalf("prefetched %+v %v", pre, ok)
	}
	// The map, reread in this tick, gives thread 31 to connection 3.
	ts.tmap.conns[3], ts.tmap.tids[31] = connThread{tid: 31}, true
	cur := []snapshot.Process{{ID: 1, Command: "Query"}, {ID: 2, Command: "Query"}, {ID: 3, Command: "Query"}}
	ts.tmap.apply(cur)
	tasks, _ := ts.withNewlyBusy(pre, cur)
	got := map[int64]snapshot.TaskCounters{}
	for _, c := range tasks {
		if _, dup := got[c.TID]; dup {
			t.Errorf("thread %d read twice", c.TID)
		}
		got[c.TID] = c
	}
	want := map[int64]snapshot.TaskCounters{
		101: {TID: 101, Conn: 1, CPUTicks: 400}, 102: {TID: 102, Conn: 2, CPUTicks: 300},
		31: {TID: 31, Conn: 3, CPUTicks: 5}, 104: {TID: 104, Name: "mytop-go", CPUTicks: 2},
	}
	if len(got) != len(want) {
		t.Errorf("read %+v, want %+v", got, want)
	}
	for tid, w := range want {
		if got[tid] != w {
			t.Errorf("thread %d: %+v, want %+v", tid, got[tid], w)
		}
	}
	// No threads read last tick (or another pid): nothing is begun.
	ts.begin(now.Add(time.Second), &snapshot.Snapshot{})
	if _, ok := ts.join(); ok {
		t.Error("begun without a last tick's threads")
	}
}
