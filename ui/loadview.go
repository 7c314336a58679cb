package ui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
	"github.com/rivo/tview"
)

// loadView is the database load over the last minutes: a stacked timeline
// of the active sessions by wait class, the CPU count drawn across it as a
// reference, and beside it the classes and the biggest slices. It reads only
// the frames' Load, so live, replay and imports draw the same.
type loadView struct {
	active bool
	loads  *loadRing
}

// loadRing keeps the last frames' load (nil: unknown), oldest first.
type loadRing struct {
	vals  []*snapshot.Load
	start int
	n     int
}

func newLoadRing(capacity int) *loadRing { return &loadRing{vals: make([]*snapshot.Load, capacity)} }

func (r *loadRing) push(l *snapshot.Load) {
	if len(r.vals) == 0 {
		return
	}
	r.vals[(r.start+r.n)%len(r.vals)] = l
	if r.n < len(r.vals) {
		r.n++
	} else {
		r.start = (r.start + 1) % len(r.vals)
	}
}

func (r *loadRing) all() []*snapshot.Load {
	out := make([]*snapshot.Load, r.n)
	for i := range out {
		out[i] = r.vals[(r.start+i)%len(r.vals)]
	}
	return out
}

// classGlyphs mark each class's band, so the chart reads in a text picture
// (no colours) as well as on a terminal; classColors colour them.
var classGlyphs = [snapshot.NumWaitClasses]rune{'C', 'I', 'R', 'M', 'T', 'G', 'Q', 'K', 'N', 'P', 'S', 'O'}

var classColors = [snapshot.NumWaitClasses]tcell.Color{
	tcell.ColorGreen, tcell.ColorBlue, tcell.ColorRed, tcell.ColorOrange, tcell.ColorMaroon, tcell.ColorPurple,
	tcell.ColorOlive, tcell.ColorTeal, tcell.ColorNavy, tcell.ColorFuchsia, tcell.ColorGray, tcell.ColorSilver,
}

// loadSideMax is the widest the classes and slices beside the chart get;
// below it they take half the view.
const loadSideMax = 60

func (d *Dashboard) toggleLoad() {
	d.load.active = !d.load.active
	if d.load.active {
		d.locks.active = false
	}
}

func (d *Dashboard) handleLoadKey(ev *tcell.EventKey) bool {
	if ev.Key() == tcell.KeyEscape {
		d.load.active = false
		return true
	}
	return false
}

func (d *Dashboard) loadHints() []item {
	return []item{{"W/Esc back", 9}, {"? help", 6}, {"q quit", 6}}
}

func (v *loadView) draw(screen tcell.Screen, r rect) {
	clearRows(screen, r.x, r.y, r.w, r.h)
	loads := v.loads.all()
	var tot infer.LoadTotals
	var last *snapshot.Load
	for _, l := range loads {
		tot.Add(l)
		if l != nil {
			last = l
		}
	}
	box := newBox().SetBorder(true).SetTitle(fmt.Sprintf(" Load: active sessions by wait class, last %s [gray](W: back)[-] ", spanOf(tot.Seconds)))
	box.SetRect(r.x, r.y, r.w, r.h)
	box.Draw(screen)
	bx, by, bw, bh := box.GetInnerRect()
	if last == nil {
		printLine(screen, "no load yet: the source has no processlist", bx, by, bw, tview.AlignLeft, tcell.ColorSilver)
		return
	}
	printLine(screen, loadSummary(last, &tot), bx, by, bw, tview.AlignLeft, textColor)
	side := min(loadSideMax, bw/2)
	chart := rect{bx, by + 1, bw - side - 1, bh - 1}
	drawLoadChart(screen, chart, loads, tot.CPUs)
	for i, line := range loadSideLines(&tot, side, bh-1) {
		printLine(screen, line, bx+bw-side, by+1+i, side, tview.AlignLeft, textColor)
	}
}

// loadSummary is the view's first line: now, average and peak.
func loadSummary(last *snapshot.Load, tot *infer.LoadTotals) string {
	s := fmt.Sprintf("now %d active", last.Active)
	if tot.CPUs > 0 {
		s += fmt.Sprintf(" on %d CPUs", tot.CPUs)
	}
	avg := tot.Average()
	s += fmt.Sprintf("   avg %s   peak %d at %s", fmtLoad(avg.Total()), tot.Peak, tot.PeakAt.Format("15:04:05"))
	return s
}

// drawLoadChart stacks each column's average sessions by class from the
// bottom, oldest column at the left; a row of '-' marks the CPU count.
func drawLoadChart(screen tcell.Screen, r rect, loads []*snapshot.Load, cpus int) {
	const axis = 4          // "27 ┤"
	w, h := r.w-axis, r.h-1 // last row: the time axis
	if w < 4 || h < 2 {
		return
	}
	cols := loadColumns(loads, w)
	top := float64(cpus)
	for i := range cols {
		top = max(top, cols[i].Total())
	}
	top = max(top, 1)
	perRow := top / float64(h)
	cpuRow := -1
	if cpus > 0 {
		cpuRow = h - 1 - min(h-1, int(float64(cpus)/perRow))
	}
	for row := range h {
		label := "   │"
		switch {
		case row == 0:
			label = fmt.Sprintf("%3.0f┤", top)
		case row == cpuRow:
			label = fmt.Sprintf("%3d┤", cpus)
		}
		printLine(screen, label, r.x, r.y+row, axis, tview.AlignLeft, tcell.ColorSilver)
	}
	x0 := r.x + axis + w - len(cols) // newest column at the right edge
	for i, c := range cols {
		for row := range h {
			mid := (float64(h-1-row) + 0.5) * perRow
			ch, st := ' ', tcell.StyleDefault
			if cls, ok := classAt(&c, mid); ok {
				ch, st = classGlyphs[cls], tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(classColors[cls])
			} else if row == cpuRow {
				ch, st = '-', tcell.StyleDefault.Foreground(tcell.ColorYellow)
			}
			screen.SetContent(x0+i, r.y+row, ch, nil, st)
		}
	}
	printLine(screen, "   └"+strings.Repeat("─", w), r.x, r.y+h, r.w, tview.AlignLeft, tcell.ColorSilver)
}

// classAt is the class whose band covers height v of a stacked column.
func classAt(c *snapshot.ClassLoad, v float64) (snapshot.WaitClass, bool) {
	acc := 0.0
	for cls, n := range c {
		acc += n
		if n > 0 && v < acc {
			return snapshot.WaitClass(cls), true
		}
	}
	return 0, false
}

// loadColumns averages the loads into at most w columns of equal span; a
// column with no known load stays empty.
func loadColumns(loads []*snapshot.Load, w int) []snapshot.ClassLoad {
	per := max(1, (len(loads)+w-1)/w)
	var out []snapshot.ClassLoad
	for i := 0; i < len(loads); i += per {
		var c snapshot.ClassLoad
		n := 0
		for _, l := range loads[i:min(i+per, len(loads))] {
			if l != nil {
				c.Add(&l.Classes, 1)
				n++
			}
		}
		if n > 0 {
			c = scaled(c, 1/float64(n))
		}
		out = append(out, c)
	}
	return out
}

func scaled(c snapshot.ClassLoad, k float64) snapshot.ClassLoad {
	var out snapshot.ClassLoad
	out.Add(&c, k)
	return out
}

// loadSideLines are the classes with load over the window, biggest first,
// each with its glyph, then the biggest slice of each dimension.
func loadSideLines(tot *infer.LoadTotals, width, height int) []string {
	avg := tot.Average()
	total := avg.Total()
	var lines []string
	order := classesBySize(avg)
	for _, c := range order {
		lines = append(lines, fmt.Sprintf("[black:%s]%c[-:-] %-13s %5s %3.0f%%", colorName(classColors[c]), classGlyphs[c], c, fmtLoad(avg[c]), avg[c]/total*100))
	}
	if len(order) == 0 {
		lines = append(lines, "no active sessions")
	}
	top := tot.Top(2)
	if len(top) > 0 {
		lines = append(lines, "", "[::b]top slices[::-] (avg sessions)")
	}
	for _, s := range top {
		head := fmt.Sprintf("%-4s %5s ", shortDim(s.By), fmtLoad(s.Sessions()))
		lines = append(lines, head+tview.Escape(safeLine(s.Name, max(1, width-len(head)))))
	}
	return lines[:min(len(lines), height)]
}

func classesBySize(avg snapshot.ClassLoad) []snapshot.WaitClass {
	var order []snapshot.WaitClass
	for c := range snapshot.NumWaitClasses {
		if avg[c] > 0 {
			order = append(order, c)
		}
	}
	for i := 1; i < len(order); i++ { // insertion sort, stable: at most 12
		for j := i; j > 0 && avg[order[j]] > avg[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	return order
}

func shortDim(d snapshot.LoadDim) string {
	switch d {
	case snapshot.DimStatement:
		return "sql"
	case snapshot.DimObject:
		return "lock"
	}
	return string(d)
}

func fmtLoad(v float64) string {
	if v >= 10 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func spanOf(secs float64) string {
	if secs >= 90 {
		return fmt.Sprintf("%.0fm", secs/60)
	}
	return fmt.Sprintf("%.0fs", secs)
}

// colorName is c as a tview colour tag.
func colorName(c tcell.Color) string { return fmt.Sprintf("#%06x", c.Hex()) }
