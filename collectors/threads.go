package collectors

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Periods of the server-side thread map, per 1,000 connections: it changes
// only when connections come and go, and on MariaDB each read costs an
// on-disk temporary table and server time that grows with the connections
// (20–60 ms at 5,000, bench/RESULTS.md). So the memory figures are up to
// 30 s old on a small server and 150 s at 5,000 connections.
const (
	threadMapEvery    = 30 * time.Second
	threadMapNewEvery = 2 * time.Second // sooner while busy connections are unmapped
	pidRetryEvery     = 30 * time.Second
)

// mapPeriods scales the map's periods with the connections it would list.
func mapPeriods(conns int) (every, whenNew time.Duration) {
	scale := max(1, float64(conns)/1000)
	return time.Duration(scale * float64(threadMapEvery)), time.Duration(scale * float64(threadMapNewEvery))
}

// threadStats reads, for a server on this machine, the CPU and I/O of the OS
// thread behind each busy connection and of mysqld's background threads,
// from /proc/<pid>/task/<tid>/{stat,io}, and the server's memory per
// connection. It runs after the processlist, whose rows it annotates.
type threadStats struct {
	link     *serverLink
	interval time.Duration
	// Root is where procfs is mounted ("/proc").
	Root string

	// proc finds mysqld and says when the server is not confirmed to run
	// here; shared with the host panel, the free space and the error log.
	proc *serverProc
	pid  int

	sess  *session // the session the map was read on
	src   threadSource
	tmap  threadMap
	mapAt time.Time
	// listDue: list the background threads next tick, not in the tick that
	// read the map, so the two costs never add up in one tick.
	listDue bool
	bg      []bgThread
	ticks   int
	noIO    string
	rd      procReader
	own     int64 // the sampling connection's id at the last tick
	// pending is this tick's /proc reads, started by begin beside the SQL
	// reads (threads_prefetch.go); nil when none runs.
	pending chan prefetched
}

// bgThread is a mysqld thread that serves no connection.
type bgThread struct {
	tid  int64
	name string
	// lastCPU is its CPU at the last read; still counts reads that found
	// it unchanged. Most background threads (and every thread waiting in
	// the thread cache) sleep: after stillReads such reads one is read only
	// every idleReadEvery ticks, until it moves again.
	lastCPU uint64
	still   int
}

const (
	stillReads    = 3
	idleReadEvery = 5
)

func newThreadStats(link *serverLink, interval time.Duration, proc *serverProc) *threadStats {
	return &threadStats{link: link, interval: interval, Root: proc.root, proc: proc}
}

// Name implements Collector.
func (t *threadStats) Name() snapshot.CollectorName { return snapshot.CollectorThreads }

// Collect implements Collector. What cannot be read is reported as the
// collector's Unavailable reason, once, not as an error every tick.
func (t *threadStats) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := t.link.session()
	if sess == nil {
		return errNotConnected
	}
	if sess != t.sess {
		t.sess, t.mapAt = sess, time.Time{}
		t.src = threadSource{useIS: sess.Caps.Flavor == snapshot.FlavorMariaDB}
	}
	if why := threadPoolIn(s.Variables, sess.Caps.Flavor); why != "" {
		setUnavailable(s, snapshot.CollectorThreads, why)
		return nil
	}
	pre, prefetchedOK := t.join()
	var proc snapshot.TaskCounters
	switch {
	case prefetchedOK && pre.err != nil:
		t.pid = 0
		setUnavailable(s, snapshot.CollectorThreads, pre.err.Error())
		return nil
	case prefetchedOK && pre.pid == t.pid:
		proc = pre.proc
	default:
		prefetchedOK = false
		var ok bool
		if proc, ok = t.process(s); !ok {
			return nil
		}
	}
	if t.listDue {
		t.listDue = false
		t.listBackground()
	} else if err := t.refreshMap(ctx, s); err != nil {
		return err
	}
	if t.tmap.shared {
		setUnavailable(s, snapshot.CollectorThreads, "thread pool: connections share OS threads, so per-thread figures are not per connection")
		return nil
	}
	t.tmap.apply(s.Processlist)
	s.Threads = &snapshot.Threads{PID: t.pid, ClockTicks: userHZ, Process: proc}
	if prefetchedOK {
		// Read at the tick's start for the connections busy in the last
		// tick; the ones busy since are read now, so their first figure is
		// not a tick late.
		var took time.Duration
		s.Threads.Tasks, took = t.withNewlyBusy(pre, s.Processlist)
		s.Threads.ReadTime = pre.took + took
	} else {
		t0 := time.Now()
		s.Threads.Tasks = t.readTasks(busyThreads(s.Processlist, t.busy), t.ownTID(sess.ID))
		s.Threads.ReadTime = time.Since(t0)
	}
	t.own = sess.ID
	t.rd.endRound()
	s.Threads.NoIO = t.noIO
	if t.noIO != "" {
		setUnavailable(s, snapshot.CollectorThreads, t.noIO)
	}
	return nil
}

// threadPoolIn says why connections are not 1:1 with OS threads, or "".
func threadPoolIn(vars map[string]string, flavor string) string {
	if strings.EqualFold(vars["thread_handling"], "pool-of-threads") {
		return "thread pool (thread_handling=pool-of-threads): OS threads are not 1:1 with connections"
	}
	if _, ok := vars["thread_pool_algorithm"]; ok && flavor == snapshot.FlavorMySQL {
		return "thread pool plugin: OS threads are not 1:1 with connections"
	}
	return ""
}

// process reads mysqld's own counters, finding its pid first when needed.
func (t *threadStats) process(s *snapshot.Snapshot) (snapshot.TaskCounters, bool) {
	pid, st, err := t.proc.stat(s.Time, s)
	if err != nil {
		t.pid = 0
		setUnavailable(s, snapshot.CollectorThreads, err.Error())
		return snapshot.TaskCounters{}, false
	}
	if pid != t.pid {
		t.pid, t.mapAt, t.bg, t.noIO = pid, time.Time{}, nil, ""
	}
	c := snapshot.TaskCounters{CPUTicks: st.cpuTicks()}
	t.readIO(0, &c)
	return c, true
}

// refreshMap rereads the server's thread map when it is due, and the list of
// background threads with it.
func (t *threadStats) refreshMap(ctx context.Context, s *snapshot.Snapshot) error {
	age := s.Time.Sub(t.mapAt)
	every, whenNew := mapPeriods(len(s.Processlist))
	if !t.mapAt.IsZero() && age < every && (age < whenNew || !t.unmappedBusy(s.Processlist)) {
		return nil
	}
	m, selfTmp, err := readThreadMap(ctx, t.sess.conn, &t.src, strings.EqualFold(s.Variables["performance_schema"], "ON"))
	s.SelfTmpDiskTables += selfTmp
	if err != nil {
		if connectionLost(err) {
			return err
		}
		t.tmap = threadMap{}
		setUnavailable(s, snapshot.CollectorThreads, "no connection-to-thread map: "+firstLine(err.Error()))
	} else {
		t.tmap = m
	}
	t.mapAt = s.Time
	if t.bg == nil {
		t.listBackground() // the first time: no background threads known yet
	} else {
		t.listDue = true
	}
	return nil
}

// busy reports a connection worth reading: working now, or idle for less
// than two ticks (its last statement's tail falls in this interval). A
// thread idle for longer spent nothing since it was last read.
func (t *threadStats) busy(p *snapshot.Process) bool {
	return p.Command != "Sleep" || p.TimeMS < 2*t.interval.Milliseconds()+500
}

func (t *threadStats) unmappedBusy(ps []snapshot.Process) bool {
	for i := range ps {
		if _, ok := t.tmap.conns[ps[i].ID]; !ok && t.busy(&ps[i]) {
			return true
		}
	}
	return false
}

// listBackground lists mysqld's threads that serve no connection.
func (t *threadStats) listBackground() {
	t.bg = make([]bgThread, 0, len(t.bg))
	dir, err := os.Open(fmt.Sprintf("%s/%d/task", t.Root, t.pid))
	if err != nil {
		return
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	for _, n := range names {
		tid, err := strconv.ParseInt(n, 10, 64)
		if err != nil || t.tmap.tids[tid] {
			continue
		}
		comm, _ := os.ReadFile(fmt.Sprintf("%s/%d/task/%d/comm", t.Root, t.pid, tid))
		t.bg = append(t.bg, bgThread{tid: tid, name: threadLabel(t.tmap.names[tid], strings.TrimSpace(string(comm)))})
	}
}

// connTID is a connection's OS thread.
type connTID struct{ conn, tid int64 }

// busyThreads lists the threads of the busy connections in ps.
func busyThreads(ps []snapshot.Process, busy func(*snapshot.Process) bool) []connTID {
	var out []connTID
	for i := range ps {
		if p := &ps[i]; p.OSThread != 0 && busy(p) {
			out = append(out, connTID{p.ID, p.OSThread})
		}
	}
	return out
}

// ownTID is the monitor's own sampling connection's thread, 0 if unmapped.
func (t *threadStats) ownTID(ownID int64) int64 {
	return t.tmap.conns[ownID].tid
}

// readTasks reads the busy connections' threads, the monitor's own and the
// background ones.
func (t *threadStats) readTasks(busy []connTID, own int64) []snapshot.TaskCounters {
	out := make([]snapshot.TaskCounters, 0, len(t.bg)+len(busy)+1)
	add := func(tid, conn int64, name string) {
		c, err := t.readTask(tid)
		if err != nil {
			return // the thread ended since it was listed
		}
		c.Conn, c.Name = conn, name
		out = append(out, c)
	}
	for _, b := range busy {
		add(b.tid, b.conn, "")
	}
	if own != 0 {
		add(own, 0, "mytop-go")
	}
	t.ticks++
	for i := range t.bg {
		b := &t.bg[i]
		// A cached thread listed as background may serve a connection the
		// map has learnt of since: it is read once, as that connection.
		if t.tmap.tids[b.tid] || b.still >= stillReads && t.ticks%idleReadEvery != 0 {
			continue
		}
		n := len(out)
		add(b.tid, 0, b.name)
		if len(out) > n {
			if cpu := out[n].CPUTicks; cpu == b.lastCPU {
				b.still++
			} else {
				b.lastCPU, b.still = cpu, 0
			}
		}
	}
	return out
}

// readTask reads one thread's counters.
func (t *threadStats) readTask(tid int64) (snapshot.TaskCounters, error) {
	c := snapshot.TaskCounters{TID: tid}
	b, err := t.rd.readTask(t.Root, t.pid, tid, "stat")
	if err != nil {
		return c, err
	}
	st, err := parseTaskStat(b)
	if err != nil {
		return c, err
	}
	c.CPUTicks = st.cpuTicks()
	c.Runnable = st.state == 'R'
	t.readIO(tid, &c)
	return c, nil
}

// readIO adds a thread's I/O counters (tid 0: the process's), unless they
// proved unreadable.
func (t *threadStats) readIO(tid int64, c *snapshot.TaskCounters) {
	if t.noIO != "" {
		return
	}
	b, err := t.rd.readTask(t.Root, t.pid, tid, "io")
	switch {
	case err == nil:
		parseTaskIO(b, c)
	case errors.Is(err, os.ErrPermission):
		t.noIO = "no I/O per thread: reading mysqld's /proc/<pid>/io needs root or the server's user"
	}
}
