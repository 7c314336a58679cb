package ui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// seekStep is how far { and } move in a replay.
const seekStep = time.Minute

func (d *Dashboard) playerBindings() []*binding {
	pl := d.opts.Player
	return []*binding{
		{[]string{"Space"}, "play / pause the replay", d.togglePause, item{}},
		{[]string{"]"}, "step one frame forward", func() { pl.Step(1); d.playerPaused = true }, item{"[ ] step", 7}},
		{[]string{"["}, "step one frame back", func() { pl.Step(-1); d.playerPaused = true }, item{}},
		{[]string{"}"}, "seek one minute forward", func() { d.seekBy(seekStep) }, item{"{ } ±1min", 6}},
		{[]string{"{"}, "seek one minute back", func() { d.seekBy(-seekStep) }, item{}},
		{[]string{"+"}, "play faster (×2)", func() { d.setSpeed(pl.Speed() * 2) }, item{"- + speed", 6}},
		{[]string{"-"}, "play slower (÷2)", func() { d.setSpeed(pl.Speed() / 2) }, item{}},
		{[]string{"n"}, "jump to the next finding (the frame that raises it)", func() { d.jumpToFinding(1) }, item{"n N finding", 7}},
		{[]string{"N"}, "jump to the previous finding (the frame that raises it)", func() { d.jumpToFinding(-1) }, item{}},
		{[]string{"g"}, "go to a time: 15:04:05, 2006-01-02 15:04:05, or +90s / -30s from here", d.openJump, item{"g go to", 6}},
	}
}

func (d *Dashboard) seekBy(delta time.Duration) {
	from, to, at, _ := d.opts.Player.Timeline()
	d.opts.Player.Seek(clampTime(at.Add(delta), from, to))
}

// setSpeed asks for x and reports the speed the player settled on, which
// differs at its limits.
func (d *Dashboard) setSpeed(x float64) {
	d.opts.Player.SetSpeed(x)
	d.say(fmt.Sprintf("speed ×%g", d.opts.Player.Speed()))
}

func (d *Dashboard) jumpToFinding(dir int) {
	s, ok := d.opts.Player.NextFinding(dir)
	switch {
	case ok:
		d.say(fmt.Sprintf("%s began %s", s.ID, s.From.Format("15:04:05")))
	case dir > 0:
		d.say("no finding starts later in this replay")
	default:
		d.say("no finding starts earlier in this replay")
	}
}

// openJump asks for a time and seeks there; a time it cannot use is
// explained in the footer and nothing moves.
func (d *Dashboard) openJump() {
	d.openModal(promptModal("go to (15:04:05, 2006-01-02 15:04:05, +90s, -30s): ", "", func(text string) {
		from, to, at, _ := d.opts.Player.Timeline()
		t, err := parseJumpTime(text, at, from, to)
		if err != nil {
			d.say("go to: " + err.Error())
			return
		}
		d.opts.Player.Seek(t)
		d.say("go to " + t.Format("2006-01-02 15:04:05"))
	}))
}

// drawTimeline draws the replay's position over its time range, with the
// stretches where findings were active. Severity is told by the glyph, not
// only the colour: █ critical, ▓ warning, ░ info, ┃ the current position.
func (d *Dashboard) drawTimeline(screen tcell.Screen, x, y, w int) {
	from, to, at, spans := d.opts.Player.Timeline()
	state := "▶"
	if d.playerPaused {
		state = "⏸"
	}
	label := fmt.Sprintf("%s ×%g %s ", state, d.opts.Player.Speed(), at.Format("15:04:05"))
	right := " " + from.Format("15:04") + "–" + to.Format("15:04")
	printLine(screen, label, x, y, w, tview.AlignLeft, textColor)
	printLine(screen, right, x, y, w, tview.AlignRight, tcell.ColorSilver)
	bx, bw := x+len([]rune(label)), w-len([]rune(label))-len([]rune(right))
	if bw < 4 || !to.After(from) {
		return
	}
	col := func(t time.Time) int {
		c := int(float64(bw-1) * t.Sub(from).Seconds() / to.Sub(from).Seconds())
		return max(0, min(bw-1, c))
	}
	cells := make([]rune, bw)
	sev := make([]snapshot.Severity, bw)
	for i := range cells {
		cells[i] = '─'
		sev[i] = -1
	}
	for _, s := range spans {
		for c := col(s.From); c <= col(s.To); c++ {
			if s.Severity > sev[c] {
				sev[c] = s.Severity
				cells[c] = spanGlyph(s.Severity)
			}
		}
	}
	cells[col(at)] = '┃'
	for i, r := range cells {
		st := tcell.StyleDefault.Foreground(tcell.ColorGray)
		if sev[i] >= 0 {
			_, c := severityLabel(sev[i])
			st = st.Foreground(c)
		}
		if r == '┃' {
			st = tcell.StyleDefault.Foreground(textColor).Bold(true)
		}
		screen.SetContent(bx+i, y, r, nil, st)
	}
}

func spanGlyph(s snapshot.Severity) rune {
	switch s {
	case snapshot.Critical:
		return '█'
	case snapshot.Warning:
		return '▓'
	default:
		return '░'
	}
}
