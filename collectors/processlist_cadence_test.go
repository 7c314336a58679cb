package collectors

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// cadenceTick is one tick of a cadence scenario: what the status said and
// what a full read would list.
type cadenceTick struct {
	running, connected int64 // Threads_running, Threads_connected; -1: no status
	rows               []snapshot.Process
	orphans            bool
}

func idleRows(n int, extra ...snapshot.Process) []snapshot.Process {
	out := make([]snapshot.Process, 0, n+len(extra))
	for i := range n {
		out = append(out, snapshot.Process{ID: int64(100 + i), User: "app", Command: "Sleep", TimeMS: 60_000})
	}
	return append(out, extra...)
}

func statusOf(running, connected int64) map[string]string {
	if running < 0 {
		return nil
	}
	return map[string]string{"Threads_running": strconv.FormatInt(running, 10), "Threads_connected": strconv.FormatInt(connected, 10)}
}

// runCadence drives c over ticks one second apart, each full read taking
// cost, and returns F for a full read and c for a carried one per tick.
func runCadence(c *listCadence, cost time.Duration, ticks []cadenceTick) string {
	t0 := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	var b strings.Builder
	for i, tk := range ticks {
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Status: statusOf(tk.running, tk.connected)}
		if c.mayCarry(s, tk.orphans) {
			b.WriteByte('c')
			continue
		}
		c.sawFull(s, cost, tk.rows)
		b.WriteByte('F')
	}
	return b.String()
}

func repeatTick(n int, tk cadenceTick) []cadenceTick {
	out := make([]cadenceTick, n)
	for i := range out {
		out[i] = tk
	}
	return out
}

func TestListCadence(t *testing.T) {
	const ms = time.Millisecond
	idle := cadenceTick{running: 1, connected: 5003, rows: idleRows(5000)}
	with := func(tk cadenceTick, f func(*cadenceTick)) cadenceTick { f(&tk); return tk }
	seq := func(parts ...[]cadenceTick) []cadenceTick {
		var out []cadenceTick
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	daemon := snapshot.Process{ID: 5, User: "event_scheduler", Command: "Daemon", State: "Waiting on empty queue"}
	dump := snapshot.Process{ID: 6, User: "repl", Command: "Binlog Dump GTID", State: "Master has sent all binlog to slave"}
	query := snapshot.Process{ID: 7, User: "app", Command: "Query", State: "User sleep", Info: "SELECT SLEEP(60)", TimeMS: 3000}
	applier := snapshot.Process{ID: 8, User: "system user", Command: "Slave_SQL", State: "Slave has read all relay log"}
	cases := []struct {
		name   string
		budget time.Duration
		cost   time.Duration
		ticks  []cadenceTick
		want   string
	}{
		{"a cheap read is made every tick", listBudget, 3 * ms, repeatTick(8, idle), "FFFFFFFF"},
		{"at the budget, every tick", listBudget, listBudget, repeatTick(8, idle), "FFFFFFFF"},
		// 18 ms against 5 ms a second: every 4 s, once three full reads
		// taught what the status shows at rest.
		{"an expensive read on an idle server", listBudget, 18 * ms, repeatTick(12, idle), "FFFcccFcccFc"},
		{"twice the budget: every other tick", listBudget, 10 * ms, repeatTick(9, idle), "FFFcFcFcF"},
		{"no more than maxEvery apart", listBudget, 200 * ms, repeatTick(13, idle), "FFFccccFccccF"},
		{"budget off: every tick", -1, 200 * ms, repeatTick(8, idle), "FFFFFFFF"},
		{"a few threads, however slow a read: every tick", listBudget, 200 * ms,
			repeatTick(8, with(idle, func(tk *cadenceTick) { tk.rows = idleRows(listMinRows - 1) })), "FFFFFFFF"},
		{"a thread starts running: read at once", listBudget, 18 * ms,
			seq(repeatTick(4, idle), []cadenceTick{with(idle, func(tk *cadenceTick) { tk.running = 2 })}, repeatTick(3, idle)),
			"FFFcFccc"},
		{"a running statement listed: read every tick while it runs", listBudget, 18 * ms,
			seq(repeatTick(4, idle), repeatTick(3, with(idle, func(tk *cadenceTick) { tk.running = 2; tk.rows = idleRows(5000, query) })), repeatTick(4, idle)),
			"FFFcFFFFccc"},
		{"a replica's applier is read every tick", listBudget, 18 * ms,
			repeatTick(8, with(idle, func(tk *cadenceTick) { tk.running = 1; tk.rows = idleRows(5000, applier) })), "FFFFFFFF"},
		{"daemons the server counts as running", listBudget, 18 * ms,
			repeatTick(8, with(idle, func(tk *cadenceTick) { tk.running = 3; tk.rows = idleRows(5000, daemon, dump) })), "FFFcccFc"},
		{"with daemons, one more running is read", listBudget, 18 * ms,
			seq(repeatTick(4, with(idle, func(tk *cadenceTick) { tk.running = 3; tk.rows = idleRows(5000, daemon, dump) })),
				[]cadenceTick{with(idle, func(tk *cadenceTick) { tk.running = 4; tk.rows = idleRows(5000, daemon, dump) })}),
			"FFFcF"},
		// A server that does not count the daemons: at rest the status
		// shows 1 with two daemons listed, so 1 is what it shows with one
		// other statement running.
		{"daemons the server does not count", listBudget, 18 * ms,
			seq(repeatTick(4, with(idle, func(tk *cadenceTick) { tk.running = 1; tk.rows = idleRows(5000, daemon, dump) })),
				[]cadenceTick{with(idle, func(tk *cadenceTick) { tk.running = 2; tk.rows = idleRows(5000, daemon, dump) })}),
			"FFFcF"},
		// A full read beside the status read on the companion counts
		// itself: 2 at rest is never taken for the mark.
		{"a read beside the status never raises the mark", listBudget, 18 * ms,
			seq(repeatTick(3, with(idle, func(tk *cadenceTick) { tk.running = 2 })), []cadenceTick{with(idle, func(tk *cadenceTick) { tk.running = 2 }), idle}),
			"FFFFc"},
		{"connections arrive in numbers: read", listBudget, 18 * ms,
			seq(repeatTick(4, idle), []cadenceTick{with(idle, func(tk *cadenceTick) { tk.connected = 5003 + 51 })}),
			"FFFcF"},
		{"a few connections come and go: carried", listBudget, 18 * ms,
			seq(repeatTick(4, idle), []cadenceTick{with(idle, func(tk *cadenceTick) { tk.connected = 5003 - 40 })}),
			"FFFcc"},
		{"a session left over waits to be seen gone", listBudget, 18 * ms,
			seq(repeatTick(4, idle), []cadenceTick{with(idle, func(tk *cadenceTick) { tk.orphans = true })}),
			"FFFcF"},
		{"no status this tick: read", listBudget, 18 * ms,
			seq(repeatTick(4, idle), []cadenceTick{with(idle, func(tk *cadenceTick) { tk.running = -1 })}),
			"FFFcF"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cad := newListCadence(time.Second, c.budget)
			if got := runCadence(&cad, c.cost, c.ticks); got != c.want {
				t.Errorf("reads %s, want %s (every %v)", got, c.want, cad.every())
			}
		})
	}
}

func TestListCadenceCarriedRows(t *testing.T) {
	cad := newListCadence(time.Second, listBudget)
	t0 := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	daemon := snapshot.Process{ID: 5, Command: "Daemon", TimeMS: 9000}
	for i := range 3 {
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Status: statusOf(2, 5003)}
		cad.sawFull(s, 18*time.Millisecond, idleRows(listMinRows, daemon))
	}
	at := t0.Add(3 * time.Second)
	s := &snapshot.Snapshot{Time: at, Status: statusOf(2, 5003)}
	if !cad.mayCarry(s, false) {
		t.Fatal("not carried")
	}
	rows := cad.carried(at)
	if rows[0].TimeMS != 61_000 || rows[1].TimeMS != 61_000 {
		t.Errorf("sleeping sessions' TIME %d, %d: want grown by the second since the read, 61000", rows[0].TimeMS, rows[1].TimeMS)
	}
	if d := rows[len(rows)-1]; d.TimeMS != 9000 {
		t.Errorf("a daemon's TIME %d: not a spell the clock grows, want 9000 as read", d.TimeMS)
	}
	if cad.rows[0].TimeMS != 60_000 {
		t.Error("carrying changed the read it carries")
	}
	cad.mark(s)
	lc := s.ListCadence
	if lc == nil || !lc.Carried(at) || !lc.FullAt.Equal(t0.Add(2*time.Second)) || lc.Every != 4*time.Second || lc.Cost != 18*time.Millisecond {
		t.Errorf("cadence %+v: want carried, full at 08:00:02, every 4s, 18ms", lc)
	}
	full := &snapshot.Snapshot{Time: t0, Status: statusOf(1, 5)}
	cheap := newListCadence(time.Second, listBudget)
	cheap.sawFull(full, time.Millisecond, idleRows(listMinRows))
	if cheap.mark(full); full.ListCadence != nil {
		t.Errorf("a cheap list is marked %+v: frames read in full every tick say nothing", full.ListCadence)
	}
}
