package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// sleepersFrame has 20 threads running the batch, 5 running something else
// and the server's own threads.
func sleepersFrame() *snapshot.Frame {
	f := incidentFrame()
	var ps []snapshot.Process
	for i := range 25 {
		q := "SELECT SLEEP(600) /* batch */"
		if i >= 20 {
			q = "SELECT SLEEP(600) /* keep */"
		}
		ps = append(ps, snapshot.Process{ID: int64(100 + i), User: "app", Host: "10.0.0.9:5000", Command: "Query", TimeMS: 30_000, Info: q})
	}
	ps = append(ps, snapshot.Process{ID: 1, User: "system user", Command: "Daemon", Info: "batch"},
		snapshot.Process{ID: 2, User: "event_scheduler", Command: "Daemon", Info: "batch"})
	f.Snapshot.Processlist = ps
	return f
}

// askKillBatch filters the sleepers on "batch" and presses X: the dashboard
// asks about the 20 matches.
func askKillBatch(t *testing.T) (*Dashboard, *fakeActions) {
	t.Helper()
	a := &fakeActions{}
	d := New(Options{Actions: a})
	d.Update(sleepersFrame())
	press(d, '/')
	typeText(d, "batch")
	pressKey(d, tcell.KeyEnter)
	press(d, 'X')
	mustContain(t, screenOf(d, 80, 24), "KILL QUERY of 20 threads")
	return d, a
}

func TestKillByFilter(t *testing.T) {
	for _, connection := range []bool{false, true} {
		t.Run(fmt.Sprint("connection=", connection), func(t *testing.T) {
			a := &fakeActions{}
			d := New(Options{Actions: a})
			d.Update(sleepersFrame())
			press(d, 'X')
			mustContain(t, d.footer(200), "needs a filter")
			if d.modal != nil || len(a.kills) != 0 {
				t.Fatal("X without a filter must not ask or kill")
			}
			press(d, '/')
			typeText(d, "batch")
			pressKey(d, tcell.KeyEnter)
			what := "KILL QUERY"
			ask := func() { press(d, 'X') }
			if connection {
				what = "KILL CONNECTION"
				ask = func() { d.handleKey(tcell.NewEventKey(tcell.KeyCtrlX, 0, tcell.ModCtrl)) }
			}
			ask()
			mustContain(t, screenOf(d, 80, 24), what+" of 20 threads", "ids 119 118 117", "and 10 more")
			press(d, 'n')
			if len(a.kills) != 0 {
				t.Fatalf("n killed %v", a.kills)
			}
			press(d, 'i') // idle threads shown: the server's own are still left alone
			ask()
			mustContain(t, screenOf(d, 80, 24), what+" of 20 threads", "2 server threads left alone")
			press(d, 'y')
			if len(a.kills) != 20 {
				t.Fatalf("killed %d threads, want 20: %v", len(a.kills), a.kills)
			}
			for _, k := range a.kills {
				if k.id < 100 || k.id >= 120 || k.connection != connection {
					t.Errorf("unexpected kill %+v", k)
				}
			}
			mustContain(t, d.footer(200), what+" sent to 20 of 20 threads")
			// One deadline for the whole batch: a slow server answers the
			// DBA within actionTimeout, not after one timeout per thread.
			for i, dl := range a.deadlines {
				if dl.IsZero() || !dl.Equal(a.deadlines[0]) {
					t.Fatalf("kill %d has deadline %v, the first %v: want one for all", i, dl, a.deadlines[0])
				}
			}
		})
	}
}

func TestKillByFilterNotBoundReadOnly(t *testing.T) {
	a := &fakeActions{}
	d := New(Options{Actions: a, ReadOnly: true})
	d.Update(sleepersFrame())
	press(d, '/')
	typeText(d, "batch")
	pressKey(d, tcell.KeyEnter)
	press(d, 'X')
	press(d, 'y')
	if d.keys["X"] != nil || d.keys["Ctrl-X"] != nil || len(a.kills) != 0 {
		t.Fatalf("read-only: X bound or kills sent %v", a.kills)
	}
}

// A tick that ran out of time before the processlist arrives between the
// question and the answer: the kill is judged on the last processlist read,
// not on the empty one (under load every target was "changed": 0 of 20).
func TestKillByFilterAfterATickWithoutProcesslist(t *testing.T) {
	d, a := askKillBatch(t)
	late := sleepersFrame()
	late.Snapshot.Processlist = nil
	late.Snapshot.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{
		snapshot.CollectorProcesslist: {Stale: true, Error: "no answer to processlist within the tick"},
	}
	d.Update(late)
	press(d, 'y')
	if len(a.kills) != 20 {
		t.Fatalf("killed %d threads, want the 20 of the last processlist read", len(a.kills))
	}
	mustContain(t, d.footer(200), "KILL QUERY sent to 20 of 20 threads")
}

// A tick that could not read the processlist (a timeout under load) keeps
// the last one read on screen, marked stale, for up to keepListedFor: a kill
// by filter asked then finds its 20 threads, where the blank list said the
// filter matched nothing. After that the panel says why it has no list.
func TestKillByFilterAskedInATickWithoutProcesslist(t *testing.T) {
	a := &fakeActions{}
	d := New(Options{Actions: a})
	first := sleepersFrame()
	d.Update(first)
	press(d, '/')
	typeText(d, "batch")
	pressKey(d, tcell.KeyEnter)
	missed := func(after time.Duration) *snapshot.Frame {
		f := sleepersFrame()
		f.Snapshot.Time = first.Snapshot.Time.Add(after)
		f.Snapshot.Processlist = nil
		f.Snapshot.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{
			snapshot.CollectorProcesslist: {Stale: true, Error: "no answer to processlist within the tick"},
		}
		return f
	}
	d.Update(missed(time.Second))
	screen := screenOf(d, 80, 24)
	mustContain(t, screen, "stale: no answer to processlist", "SELECT SLEEP(600) /* batch */")
	press(d, 'X')
	mustContain(t, screenOf(d, 80, 24), "KILL QUERY of 20 threads")
	press(d, 'y')
	if len(a.kills) != 20 {
		t.Fatalf("killed %d threads, want the 20 the stale list showed", len(a.kills))
	}
	d.Update(missed(keepListedFor + time.Second))
	screen = screenOf(d, 80, 24)
	if strings.Contains(screen, "SELECT SLEEP(600) /* batch */") {
		t.Errorf("a processlist %v old is still shown as the list:\n%s", keepListedFor+time.Second, screen)
	}
	mustContain(t, screen, "no answer to processlist within the tick")
}
