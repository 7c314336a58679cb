package ui

import (
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Between X and y a pooled connection may run someone else's statement:
// every thread goes through the kill gate (Actions.Kill) with the row the
// question showed, and the dashboard leaves alone those the filter no
// longer matches in the latest frame (or that ended) without asking the
// gate, counts the gate's refusals as changed, and says why.
func TestKillByFilterSkipsThreadsChangedBeforeYes(t *testing.T) {
	d, a := askKillBatch(t)
	a.refuse = map[int64]string{
		100: "KILL QUERY 100 not sent: thread 100 now runs `SELECT SLEEP(600) /* batch, next request */`",
		102: "KILL QUERY 102 not sent: thread 102 is now other@10.0.0.9:5000",
		103: "KILL QUERY 103 not sent: thread 103 is now app@10.0.0.10:6000",
		104: "KILL QUERY 104 not sent: thread 104 is now the cloud provider's administration session",
	}

	f := sleepersFrame()
	ps := f.Snapshot.Processlist
	ps[0].Info = "SELECT SLEEP(600) /* batch, next request */" // still matches: the gate's to judge
	ps[1].Info = "UPDATE accounts SET v = 1"                   // no longer matches
	ps = slices.Delete(ps, 5, 6)                               // ended
	f.Snapshot.Processlist = ps
	d.Update(f)
	press(d, 'y')

	for _, k := range a.kills {
		if k.id >= 100 && k.id <= 105 {
			t.Errorf("thread %d changed before y and was killed", k.id)
		}
	}
	if len(a.kills) != 14 {
		t.Errorf("killed %d threads, want the 14 unchanged: %v", len(a.kills), a.kills)
	}
	if len(a.targets) != 18 {
		t.Errorf("%d threads went to the gate, want the 18 the filter still matches", len(a.targets))
	}
	for _, k := range a.targets {
		if k.Info != "SELECT SLEEP(600) /* batch */" || k.User != "app" || k.Mode != snapshot.ModeLive || k.Seen.IsZero() {
			t.Errorf("the gate was not given the row the question showed: %+v", k)
		}
	}
	mustContain(t, screenOf(d, 250, 24), "KILL QUERY sent to 14 of 20 threads", "6 changed since the question", "left alone (KILL QUERY 10", " not sent: thread 10")
}

// The server's own threads, replication, delayed inserts, mysql.session and
// the cloud providers' admin sessions are never killed, from any key.
func TestProtectedSessionsAreNeverKilled(t *testing.T) {
	protected := []snapshot.Process{
		{ID: 11, User: "system user", Command: "Slave_SQL", Info: "batch"},
		{ID: 12, User: "event_scheduler", Command: "Daemon", Info: "batch"},
		{ID: 13, User: "DELAYED", Command: "Delayed insert", Info: "batch"},
		{ID: 14, User: "mysql.session", Command: "Query", Info: "batch"},
		{ID: 15, User: "repl", Command: "Binlog Dump GTID", Info: "batch"},
		{ID: 16, User: "rdsadmin", Command: "Query", Info: "batch"},
		{ID: 17, User: "azure_superuser", Command: "Query", Info: "batch"},
		{ID: 18, User: "cloudsqladmin", Command: "Query", Info: "batch"},
	}
	frame := func() *snapshot.Frame {
		f := incidentFrame()
		f.Snapshot.Processlist = slices.Clone(protected)
		return f
	}
	t.Run("single", func(t *testing.T) {
		a := &fakeActions{}
		d := New(Options{Actions: a})
		d.Update(frame())
		press(d, 'i') // idle and server threads shown
		for range protected {
			for _, key := range "kK" {
				press(d, key)
				if d.modal != nil {
					t.Fatalf("%c asked about a protected thread:\n%s", key, screenOf(d, 120, 30))
				}
				mustContain(t, screenOf(d, 200, 24), "never killed from here")
			}
			pressKey(d, tcell.KeyDown)
		}
		if len(a.kills) != 0 {
			t.Errorf("protected threads killed: %v", a.kills)
		}
	})
	t.Run("filter", func(t *testing.T) {
		a := &fakeActions{}
		d := New(Options{Actions: a})
		d.Update(frame())
		press(d, 'i')
		press(d, '/')
		typeText(d, "batch")
		pressKey(d, tcell.KeyEnter)
		press(d, 'X')
		press(d, 'y')
		if len(a.kills) != 0 {
			t.Errorf("protected threads killed by filter: %v", a.kills)
		}
	})
	t.Run("root blocker", func(t *testing.T) {
		a := &fakeActions{}
		d := New(Options{Actions: a})
		f := lockFrame()
		for i := range f.Snapshot.Processlist {
			if p := &f.Snapshot.Processlist[i]; p.ID == 4711 || p.ID == 90 {
				p.User = "rdsadmin"
			}
		}
		d.Update(f)
		press(d, 'L')
		screenOf(d, 80, 24)
		press(d, 'K')
		press(d, 'y')
		pressKey(d, tcell.KeyDown)
		press(d, 'K')
		press(d, 'y')
		if len(a.kills) != 0 {
			t.Errorf("a protected root blocker was killed: %v", a.kills)
		}
	})
}

// The header says when the monitor holds as many sessions on the server as
// it allows itself, and nothing while it holds fewer.
func TestHeaderShowsTheOwnSessionsCap(t *testing.T) {
	d := New(Options{})
	f := incidentFrame()
	f.Snapshot.Server.OwnSessions = 2
	d.Update(f)
	mustNotContain(t, screenOf(d, 200, 24), "own sessions")
	f = incidentFrame()
	f.Snapshot.Server.OwnSessions, f.Snapshot.Server.OwnSessionsCap = 3, 3
	d.Update(f)
	mustContain(t, screenOf(d, 200, 24), "own sessions 3/3: at the monitor's cap")
}
