package collectors

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The /proc side of a threads tick runs beside the SQL reads, not after
// them: begin starts it when the tick starts, from what the last tick knew
// (mysqld's pid, the map, which connections were busy), and Collect takes
// its result after the processlist. At 5,000 connections mysqld's own stat
// and io walk all its threads (0.5–3 ms each on a loaded machine), and at
// many busy connections the per-thread reads add up to tens of ms: the tick
// no longer waits for them while the server answers. Counters read at the
// tick's start are also closer to the snapshot's time, which the rates
// divide by, than counters read after SQL reads of varying length.

// prefetched is one tick's reads made by begin.
type prefetched struct {
	pid   int
	proc  snapshot.TaskCounters
	tasks []snapshot.TaskCounters
	busy  map[int64]bool // the connections read
	took  time.Duration
	err   error // mysqld gone or not found
}

// begin starts this tick's /proc reads when the last tick read threads; the
// goroutine owns the collector's reading state until join.
func (t *threadStats) begin(now time.Time, prev *snapshot.Snapshot) {
	if t.pending != nil || t.pid == 0 || prev == nil || prev.Threads == nil || prev.Threads.PID != t.pid {
		return
	}
	busy := busyThreads(prev.Processlist, t.busy)
	own := t.ownTID(t.own)
	ch := make(chan prefetched, 1)
	t.pending = ch
	go func() {
		t0 := time.Now()
		r := prefetched{busy: make(map[int64]bool, len(busy))}
		pid, st, err := t.proc.stat(now, prev)
		switch {
		case err != nil:
			r.err = err
		case pid != t.pid:
			r.pid = pid // restarted under another pid: Collect starts over
		default:
			r.pid = pid
			r.proc = snapshot.TaskCounters{CPUTicks: st.cpuTicks()}
			t.readIO(0, &r.proc)
			r.tasks = t.readTasks(busy, own)
			for _, b := range busy {
				r.busy[b.conn] = true
			}
		}
		r.took = time.Since(t0)
		ch <- r
	}()
}

// join waits for the reads begin started; ok is false when none ran.
func (t *threadStats) join() (r prefetched, ok bool) {
	if t.pending == nil {
		return prefetched{}, false
	}
	r = <-t.pending
	t.pending = nil
	return r, true
}

// withNewlyBusy completes the prefetched tasks with this tick's processlist:
// drops background threads the map now gives to a connection, and reads the
// connections that became busy since the last tick.
func (t *threadStats) withNewlyBusy(r prefetched, ps []snapshot.Process) ([]snapshot.TaskCounters, time.Duration) {
	out := r.tasks[:0]
	for _, c := range r.tasks {
		if c.Conn == 0 && c.Name != "mytop-go" && t.tmap.tids[c.TID] {
			continue
		}
		out = append(out, c)
	}
	t0 := time.Now()
	for i := range ps {
		p := &ps[i]
		if p.OSThread == 0 || r.busy[p.ID] || !t.busy(p) {
			continue
		}
		if c, err := t.readTask(p.OSThread); err == nil {
			c.Conn = p.ID
			out = append(out, c)
		}
	}
	return out, time.Since(t0)
}
