package collectors

import (
	"slices"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// listCadence decides, tick by tick, whether the processlist is read in full
// or its last full read carried. Every read walks every connection on the
// server, whatever it is asked for: MariaDB fills information_schema.
// PROCESSLIST for all threads before any WHERE, so a read of only the
// running ones costs as much as SHOW FULL PROCESSLIST, or more. At 5,000 idle
// connections such a read costs the server several milliseconds to tens of
// them (bench/RESULTS.md), every second, to learn that the same sessions
// still sleep.
//
// So the full read has a budget of the server's time: while a read costs
// more than budget per second, the full list is read every cost/budget
// seconds (whole ticks, at most maxEvery), and in between the ticks carry
// its rows only while the server's own status, read first in every tick,
// says nothing changed that the list would show:
//   - Threads_running, less the daemons listed, is 1: the status read itself
//     (MariaDB and MySQL count the session reading it, and the daemons). A
//     statement, a lock waiter or an idle session woken up makes it higher,
//     and the list is read in full at once. Where the full reads that listed
//     nothing at work saw less than 1 (a server that counts otherwise), that
//     is the mark instead; never more than 1, as a full read beside the
//     status read on the companion session may have counted itself;
//   - Threads_connected moved by less than connectedSlack since the full
//     read (a connection storm, or many leaving);
//   - the last full read showed no thread at work, only sleeping sessions and
//     the daemons (Daemon, Binlog Dump): a running statement, a replica's
//     appliers and a killed thread are read every tick;
//   - no session the monitor left over is waiting for the list to see it gone.
//
// The carried rows are the idle ones of the last full read; their TIME grows
// with the clock, so a sleeping session's idle spell keeps its start (what
// the kill gate compares). A session that ran a statement shorter than a tick
// between two reads shows its old idle spell until the next full read; the
// frame says how old the full read is (snapshot.ListCadence), and so does the
// processlist's title.
type listCadence struct {
	// budget is the server time per second the full read may take on
	// average; maxEvery the longest period between full reads (the age of
	// the oldest idle row shown). A budget of zero or less: read in full
	// every tick.
	budget, maxEvery time.Duration
	interval         time.Duration

	costs []time.Duration // the last full reads' times, oldest first
	// lastFull is when the list was last read in full; connected the
	// Threads_connected of that tick.
	lastFull  time.Time
	connected int64
	// running are Threads_running less the daemons listed, at the last
	// full reads that listed no thread at work: what the status shows when
	// nothing but the monitor's reads run.
	running []int64
	// rows is the last full read, and carryable whether it may be carried.
	rows      []snapshot.Process
	carryable bool
}

const (
	// listBudget: a full read may cost the server 5 ms a second on average,
	// half a percent of a core. At 1,000 connections a read costs 1-3 ms
	// and is made every tick; at 5,000, 8-20 ms, made every 2-4 s.
	listBudget = 5 * time.Millisecond
	// listMaxEvery: an idle row shown is at most this old.
	listMaxEvery = 5 * time.Second
	// listMinRows: below this many threads a read's time is the round trip
	// and the machine's load, not a walk of the connections; reading less
	// often would save the server nothing.
	listMinRows = 500
	// listCostWindow full reads' median is the cost of a read.
	listCostWindow = 5
	// listRunningWindow full reads teach what Threads_running shows at
	// rest; carrying starts after listRunningLearnt of them.
	listRunningWindow = 8
	listRunningLearnt = 3
)

func newListCadence(interval, budget time.Duration) listCadence {
	return listCadence{budget: budget, maxEvery: max(listMaxEvery, interval), interval: interval}
}

// every is the full read's period now: one tick while a read costs at most
// the budget of a tick or lists fewer than listMinRows threads, else as many
// ticks as the budget needs, up to maxEvery.
func (c *listCadence) every() time.Duration {
	cost := c.cost()
	if c.budget <= 0 || len(c.rows) < listMinRows || cost <= c.budget*time.Duration(c.interval)/time.Second {
		return c.interval
	}
	// cost/period <= budget per second: period >= cost/budget seconds.
	period := time.Duration(float64(time.Second) * float64(cost) / float64(c.budget))
	ticks := (period + c.interval - 1) / c.interval
	return min(ticks*c.interval, max(c.maxEvery/c.interval, 1)*c.interval)
}

// cost is the median of the last full reads' times.
func (c *listCadence) cost() time.Duration {
	if len(c.costs) == 0 {
		return 0
	}
	s := slices.Clone(c.costs)
	slices.Sort(s)
	return s[len(s)/2]
}

// stretched reports whether the full read is made less often than every tick.
func (c *listCadence) stretched() bool { return c.every() > c.interval }

// fullDue reports whether the period of the full read has run out at now
// (half a tick of slack, as the scheduler's).
func (c *listCadence) fullDue(now time.Time) bool {
	return c.lastFull.IsZero() || now.Sub(c.lastFull) >= c.every()-c.interval/2
}

// mayCarry reports whether the tick at s may carry the last full read:
// the period has not run out and s's status (read before) says the list
// would show nothing new; orphans: a session the monitor left over is
// waiting to be seen gone.
func (c *listCadence) mayCarry(s *snapshot.Snapshot, orphans bool) bool {
	if orphans || !c.mayCarryAt(s.Time) {
		return false
	}
	running, ok1 := statusCount(s, "Threads_running")
	connected, ok2 := statusCount(s, "Threads_connected")
	if !ok1 || !ok2 || running-int64(daemons(c.rows)) > c.atRest() {
		return false
	}
	return abs64(connected-c.connected) <= connectedSlack(c.connected)
}

// mayCarryAt reports whether a tick at now may carry the last full read,
// should its status allow: the full read is not due, and the last one
// listed nothing at work on a server whose resting status is known.
func (c *listCadence) mayCarryAt(now time.Time) bool {
	return c.carryable && len(c.running) >= listRunningLearnt && !c.fullDue(now)
}

// atRest is the most Threads_running, less the daemons, may show with nothing
// but the status read running: 1, or less where the server showed less.
func (c *listCadence) atRest() int64 { return min(1, slices.Min(c.running)) }

// connectedSlack is how far Threads_connected may move before the list is
// read again: a few sessions of a pool coming and going do not need a walk
// of 5,000, a storm of new ones does.
func connectedSlack(connected int64) int64 { return max(10, connected/100) }

// sawFull records a full read made at s (its status read before it) that
// took took and listed rows (the monitor's own left out).
func (c *listCadence) sawFull(s *snapshot.Snapshot, took time.Duration, rows []snapshot.Process) {
	c.lastFull, c.rows = s.Time, rows
	c.costs = append(c.costs, took)
	if len(c.costs) > listCostWindow {
		c.costs = c.costs[1:]
	}
	c.carryable = !anyAtWork(rows)
	running, ok1 := statusCount(s, "Threads_running")
	connected, ok2 := statusCount(s, "Threads_connected")
	c.connected = connected
	if !ok1 || !ok2 {
		c.carryable = false
		return
	}
	if c.carryable {
		c.running = append(c.running, running-int64(daemons(rows)))
		if len(c.running) > listRunningWindow {
			c.running = c.running[1:]
		}
	}
}

// carried is the last full read as of s's time: a copy, each sleeping
// session's TIME grown by the time since the read.
func (c *listCadence) carried(now time.Time) []snapshot.Process {
	out := slices.Clone(c.rows)
	grown := now.Sub(c.lastFull).Milliseconds()
	for i := range out {
		if out[i].Command == "Sleep" {
			out[i].TimeMS += grown
		}
	}
	return out
}

// mark says on s how the list is read while the full read is stretched
// (nil otherwise: read in full every tick, as ever).
func (c *listCadence) mark(s *snapshot.Snapshot) {
	if c.stretched() {
		c.setCadence(s)
	}
}

// setCadence says on s how its list was read. A carried list always says
// so, also when the full read is not stretched: a tick that came within
// half a tick of the last full read (the scheduler catching up after a slow
// one) carries it too, and its frame showed it as read.
func (c *listCadence) setCadence(s *snapshot.Snapshot) {
	s.ListCadence = &snapshot.ListCadence{FullAt: c.lastFull, Every: c.every(), Cost: c.cost(), Budget: c.budget}
}

// forget drops what was learnt about the server: a new session may be a
// restarted server with other daemons.
func (c *listCadence) forget() {
	budget, maxEvery, interval := c.budget, c.maxEvery, c.interval
	*c = listCadence{budget: budget, maxEvery: maxEvery, interval: interval}
}

// anyAtWork reports whether a thread does more than sleep or run a daemon's
// loop: a statement, a replica's applier, a thread being killed.
func anyAtWork(rows []snapshot.Process) bool {
	for i := range rows {
		if rows[i].Command != "Sleep" && !rows[i].IsDaemon() {
			return true
		}
	}
	return false
}

func daemons(rows []snapshot.Process) int {
	n := 0
	for i := range rows {
		if rows[i].IsDaemon() {
			n++
		}
	}
	return n
}

func statusCount(s *snapshot.Snapshot, name string) (int64, bool) {
	if s.Status == nil {
		return 0, false
	}
	return s.StatusInt(name)
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
