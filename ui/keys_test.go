package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

func TestHelpListsEveryBoundKey(t *testing.T) {
	d := New(Options{Actions: &fakeActions{}, Player: &fakePlayer{}})
	d.Update(incidentFrame())
	screenOf(d, 200, 50) // help wraps to the screen it is opened on
	press(d, '?')
	if d.modal == nil {
		t.Fatal("? did not open help")
	}
	s := screenOf(d, 200, 50)
	for _, b := range d.bindings {
		for _, k := range b.keys {
			if !strings.Contains(s, k) {
				t.Errorf("help lacks key %q", k)
			}
		}
		if !strings.Contains(s, b.help) {
			t.Errorf("help lacks %q", b.help)
		}
	}
	press(d, '?')
	if d.modal != nil {
		t.Error("? again should close help")
	}
}

func TestKillAsksAndOnlyYesKills(t *testing.T) {
	acts := &fakeActions{}
	d := New(Options{Actions: acts})
	d.Update(incidentFrame())
	// Rows are by Time desc: 4001 (75 s) first, then 5121.
	pressKey(d, tcell.KeyDown)
	press(d, 'k')
	s := screenOf(d, 120, 40)
	mustContain(t, s, "KILL QUERY 5121", "user app", "statement started 14:01:29 (48s ago)")
	press(d, 'n')
	if len(acts.kills) != 0 || d.modal != nil {
		t.Fatalf("n must cancel: kills=%v modal=%v", acts.kills, d.modal != nil)
	}
	press(d, 'K')
	mustContain(t, screenOf(d, 120, 40), "KILL CONNECTION 5121")
	press(d, 'x') // any other key leaves the question open and kills nothing
	if len(acts.kills) != 0 || d.modal == nil {
		t.Fatalf("stray key acted: kills=%v", acts.kills)
	}
	press(d, 'y')
	if want := []killCall{{5121, true}}; !slices.Equal(acts.kills, want) {
		t.Fatalf("kills = %v, want %v", acts.kills, want)
	}
	mustContain(t, screenOf(d, 120, 40), "KILL CONNECTION 5121 sent")
}

func TestReadOnlyDoesNotBindKill(t *testing.T) {
	acts := &fakeActions{}
	d := New(Options{Actions: acts, ReadOnly: true})
	d.Update(incidentFrame())
	press(d, 'k')
	press(d, 'K')
	press(d, 'y')
	if len(acts.kills) != 0 || d.modal != nil {
		t.Fatalf("read-only must not kill: %v", acts.kills)
	}
	if _, bound := d.keys["k"]; bound {
		t.Error("k bound in read-only mode")
	}
}

func TestReplayWithoutActionsHasNoServerKeys(t *testing.T) {
	d := New(Options{})
	for _, k := range []string{"k", "K"} {
		if _, bound := d.keys[k]; bound {
			t.Errorf("%s bound without Actions", k)
		}
	}
}

func TestEnterShowsWholeQueryWrapped(t *testing.T) {
	f := incidentFrame()
	long := "SELECT o.id, o.total, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.created_at > NOW() - INTERVAL 7 DAY AND c.country = 'NL' ORDER BY o.total DESC LIMIT 20 OFFSET 60000"
	f.Snapshot.Processlist[3].Info = long // thread 4001, first by Time
	d := New(Options{})
	d.Update(f)
	pressKey(d, tcell.KeyEnter)
	s := screenOf(d, 80, 24)
	mustContain(t, s, "Thread 4001", "OFFSET 60000", "user report")
	pressKey(d, tcell.KeyEscape)
	if d.modal != nil {
		t.Error("Esc should close the query view")
	}
}

func TestExplainUsesActions(t *testing.T) {
	acts := &fakeActions{plan: nil}
	acts.plan = append(acts.plan, explainRow("1", "SIMPLE", "orders", "ALL", 9_800_000, "Using temporary"))
	d := New(Options{Actions: acts})
	d.Update(incidentFrame())
	press(d, 'e')
	if !slices.Equal(acts.explains, []int64{4001}) {
		t.Fatalf("explains = %v", acts.explains)
	}
	mustContain(t, screenOf(d, 120, 40), "EXPLAIN thread 4001", "orders", "ALL", "9,800,000", "Using temporary")
}

func TestTabFocusShowsEvidenceAndHighlightsThreads(t *testing.T) {
	d := New(Options{})
	d.Update(incidentFrame())
	pressKey(d, tcell.KeyTab)
	if !d.focusFindings {
		t.Fatal("Tab did not focus findings")
	}
	s := screenOf(d, 120, 40)
	mustContain(t, s, "• 2 threads in 'Waiting for query cache lock'", "advice set query_cache_type=0")
	if !d.list.highlight[5188] || d.list.highlight[5121] {
		t.Errorf("highlight = %v, want the query cache threads", d.list.highlight)
	}
	pressKey(d, tcell.KeyDown)
	if !d.list.highlight[5121] || d.list.highlight[5188] {
		t.Errorf("after moving to full_scan_update highlight = %v", d.list.highlight)
	}
	mustContain(t, screenOf(d, 120, 40), "*+ 5121 app")
}

func TestLivePauseFreezesThenJumpsToLatest(t *testing.T) {
	d := New(Options{})
	d.Update(frameAt(1000))
	press(d, 'p')
	next := frameAt(1001)
	next.Snapshot.Processlist = next.Snapshot.Processlist[:1]
	d.Update(next)
	if d.frame.Seq != 1000 || len(d.list.all) != 6 {
		t.Fatalf("paused view changed to frame %d", d.frame.Seq)
	}
	mustContain(t, screenOf(d, 120, 40), "PAUSED (1 new)")
	press(d, 'p')
	if d.frame.Seq != 1001 || len(d.list.all) != 1 {
		t.Fatalf("resume shows frame %d, want the latest", d.frame.Seq)
	}
}

func TestQuitKeys(t *testing.T) {
	for _, ev := range []*tcell.EventKey{
		tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone),
		tcell.NewEventKey(tcell.KeyCtrlC, 0, tcell.ModCtrl),
	} {
		d := New(Options{})
		d.handleKey(ev)
		if !d.quitting {
			t.Errorf("%v did not quit", ev.Name())
		}
	}
}

func TestReplayExplainShowsRecordedPlan(t *testing.T) {
	f := incidentFrame()
	f.Snapshot.Explains = map[string]*snapshot.Explain{
		"update b set qty = qty - ? where c = ?": {ThreadID: 5121, Statement: "UPDATE b SET qty = qty - 1 WHERE c = 'x'",
			At: t0.Add(-30 * time.Second), Rows: []snapshot.ExplainRow{explainRow("1", "SIMPLE", "b", "ALL", 2_100_000, "Using where")}},
	}
	d := New(Options{})
	d.Update(f)
	press(d, 'e') // 4001 has no recorded plan
	mustContain(t, screenOf(d, 120, 40), "no EXPLAIN recorded for thread 4001")
	pressKey(d, tcell.KeyDown)
	press(d, 'e')
	mustContain(t, screenOf(d, 120, 40), "EXPLAIN thread 5121, recorded 14:01:47", "2,100,000", "Using where")
}
