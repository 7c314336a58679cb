package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// screenOf draws d at w×h and returns the text.
func screenOf(d *Dashboard, w, h int) string { return ScreenText(d.drawOn(w, h)) }

func press(d *Dashboard, r rune) { d.handleKey(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone)) }

func pressKey(d *Dashboard, k tcell.Key) { d.handleKey(tcell.NewEventKey(k, 0, tcell.ModNone)) }

func typeText(d *Dashboard, s string) {
	for _, r := range s {
		press(d, r)
	}
}

func mustContain(t *testing.T, screen string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(screen, w) {
			t.Errorf("screen lacks %q:\n%s", w, screen)
		}
	}
}

func mustNotContain(t *testing.T, screen string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(screen, w) {
			t.Errorf("screen has %q:\n%s", w, screen)
		}
	}
}

// shownIDs are the processlist's thread ids in display order.
func shownIDs(d *Dashboard) []int64 {
	var ids []int64
	for i := range d.list.rows {
		ids = append(ids, d.list.row(i).ID)
	}
	return ids
}

type killCall struct {
	id         int64
	connection bool
}

// fakeActions records what the dashboard asked of the server.
type fakeActions struct {
	kills []killCall
	// targets are what each Kill was asked to hold the server to; refuse
	// plays the kill gate for the ids it names, with the reason given.
	targets   []snapshot.KillTarget
	refuse    map[int64]string
	deadlines []time.Time // each Kill's context deadline
	explains  []int64
	plan      []snapshot.ExplainRow
	err       error
}

func (a *fakeActions) Explain(_ context.Context, id int64, _ string) ([]snapshot.ExplainRow, error) {
	a.explains = append(a.explains, id)
	return a.plan, a.err
}

func (a *fakeActions) Kill(ctx context.Context, target snapshot.KillTarget, connection bool) error {
	a.targets = append(a.targets, target)
	if why, ok := a.refuse[target.ID]; ok {
		return &snapshot.KillRefused{Reason: why}
	}
	a.kills = append(a.kills, killCall{target.ID, connection})
	dl, _ := ctx.Deadline()
	a.deadlines = append(a.deadlines, dl)
	return a.err
}

// fakePlayer records replay commands.
type fakePlayer struct {
	calls          []string
	from, to, at   time.Time
	spans          []snapshot.Span
	seeks          []time.Time
	speeds         []float64
	speed          float64 // 0 reads as 1
	maxSpeed       float64 // clamp, as the real player does; 0: none
	steps, findDir []int
}

func (p *fakePlayer) TogglePause()     { p.calls = append(p.calls, "pause") }
func (p *fakePlayer) Step(n int)       { p.steps = append(p.steps, n) }
func (p *fakePlayer) Seek(t time.Time) { p.seeks = append(p.seeks, t) }
func (p *fakePlayer) SetSpeed(x float64) {
	p.speeds = append(p.speeds, x)
	if p.maxSpeed > 0 {
		x = min(x, p.maxSpeed)
	}
	p.speed = x
}

func (p *fakePlayer) Speed() float64 {
	if p.speed == 0 {
		return 1
	}
	return p.speed
}

// NextFinding goes to the first span starting after at (dir > 0) or the last
// one starting before it.
func (p *fakePlayer) NextFinding(dir int) (snapshot.Span, bool) {
	p.findDir = append(p.findDir, dir)
	var found *snapshot.Span
	for i := range p.spans {
		s := &p.spans[i]
		if dir > 0 && s.From.After(p.at) && found == nil {
			found = s
		}
		if dir < 0 && s.From.Before(p.at) {
			found = s
		}
	}
	if found == nil {
		return snapshot.Span{}, false
	}
	p.at = found.From
	return *found, true
}
func (p *fakePlayer) Timeline() (from, to, at time.Time, spans []snapshot.Span) {
	return p.from, p.to, p.at, p.spans
}

func explainRow(id, selectType, table, typ string, rows int64, extra string) snapshot.ExplainRow {
	return snapshot.ExplainRow{ID: id, SelectType: selectType, Table: table, Type: typ, Rows: rows, Extra: extra}
}
