package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
	"github.com/rivo/tview"
)

// findingsPanel lists the findings, most severe first, then the rules that
// cannot run on this source. A root cause, when findings are linked, is one
// line on top in plain words, and the most severe finding stays in view
// however far the selection scrolls (the first table row is fixed). With
// focus it also shows the selected finding's evidence and advice.
type findingsPanel struct {
	*tview.Box
	grid     findingsGrid
	findings []snapshot.Finding
	root     string // the root-cause line, tagged and escaped; "" when none
	// na groups the rules that cannot run by reason, so a user without
	// PROCESS reads one line per missing privilege, not one per rule, and the
	// lines fit the panel.
	na []naGroup
	at time.Time
	// normal is the baseline's word ("no baseline yet (3 min of history)").
	normal string
	// selectionChanged is called when a key moves the selection.
	selectionChanged func()
}

func newFindingsPanel() *findingsPanel {
	p := &findingsPanel{Box: newBox()}
	p.SetBorder(true).SetTitleAlign(tview.AlignLeft)
	return p
}

// set shows f's findings, keeping the selected finding selected if it is still active.
func (p *findingsPanel) set(f *snapshot.Frame) {
	keep := p.selectedID()
	p.at = f.Time()
	p.findings = slices.Clone(f.Findings)
	slices.SortStableFunc(p.findings, func(a, b snapshot.Finding) int {
		// What is new on this server comes before how it always runs.
		if a.Chronic != b.Chronic {
			if a.Chronic {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(b.Severity, a.Severity); c != 0 {
			return c
		}
		return a.Since.Compare(b.Since)
	})
	p.na = groupNotApplicable(f.NotApplicable)
	p.root = onsetLine(f.Onsets)
	if p.root == "" {
		p.root = rootCauseLine(p.findings)
	}
	p.normal = ""
	if f.Normal != nil {
		p.normal = f.Normal.Note
	}
	// Start from the top each frame: an offset kept from a longer list would
	// skip the rows under the fixed one; selecting scrolls to the selection.
	// The most severe finding is row 0; fixing it keeps it on screen when a
	// selected info row further down scrolls the list.
	p.grid.setRows(p.rows(), len(p.findings), min(len(p.findings), 1))
	for i := range p.findings {
		if p.findings[i].ID == keep {
			p.grid.selectRow(i)
		}
	}
	p.SetTitle(p.title())
}

func (p *findingsPanel) title() string {
	t := " Findings (" + itoa(len(p.findings)) + ") "
	if p.normal != "" {
		t += "· " + safeLine(p.normal, 60) + " "
	}
	return t
}

// rootCauseLine is the first root cause in plain words, with how many more.
func rootCauseLine(fs []snapshot.Finding) string {
	rcs := infer.RootCauses(fs)
	if len(rcs) == 0 {
		return ""
	}
	_, color := severityLabel(rcs[0].Severity)
	line := "[" + color.String() + "::b]ROOT CAUSE[-::-] " + safeLine(strings.TrimPrefix(rcs[0].Line(), "root cause: "), 400)
	if len(rcs) > 1 {
		line += " [::d](+" + itoa(len(rcs)-1) + " more)[::-]"
	}
	return line
}

// rootRows is how many lines the root cause takes (0 or 1).
func (p *findingsPanel) rootRows() int {
	if p.root == "" {
		return 0
	}
	return 1
}

// rows are the findings' cells, then one line for "no findings" and each
// group of rules that cannot run.
func (p *findingsPanel) rows() [][]gridCell {
	rows := make([][]gridCell, 0, max(len(p.findings), 1)+len(p.na))
	for i := range p.findings {
		rows = append(rows, findingCells(p.at, &p.findings[i]))
	}
	if len(p.findings) == 0 {
		rows = append(rows, []gridCell{{text: "[green]no findings[-]", style: plainStyle, tagged: true}})
	}
	for _, g := range p.na {
		rows = append(rows, g.cells())
	}
	if len(p.na) > 0 && len(rows[0]) == 1 {
		rows[0] = append(rows[0], make([]gridCell, 3)...)
	}
	return rows
}

// plainStyle is a cell's text in the panel's text colour.
var plainStyle = tcell.StyleDefault.Foreground(textColor)

// naStyle is a rule that cannot run: there, but out of the way.
var naStyle = tcell.StyleDefault.Foreground(tcell.ColorGray).Dim(true)

// findingCells are a finding's severity, ID, time active and title.
func findingCells(at time.Time, f *snapshot.Finding) []gridCell {
	sev, color := severityLabel(f.Severity)
	title := gridCell{text: safeLine(f.Title, 300), style: plainStyle, expand: true}
	if len(f.CausedBy) > 0 {
		title.text += " [::d]← " + safeLine(strings.Join(f.CausedBy, ", "), 100) + "[::-]"
		title.tagged = true
	}
	if f.Chronic {
		title.text += " [::d](" + chronicWords(f) + ")[::-]"
		title.tagged = true
	}
	return []gridCell{
		{text: sev, style: tcell.StyleDefault.Foreground(color).Bold(true)},
		{text: safeLine(f.ID, 40), style: plainStyle},
		{text: activeFor(at, f.Since), style: plainStyle, right: true},
		title,
	}
}

// cells are the group's line: one rule by name, or how many and which.
func (g naGroup) cells() []gridCell {
	name, text := g.ids[0], "not applicable: "+safeLine(g.reason, 200)
	if len(g.ids) > 1 {
		name = fmt.Sprintf("%d rules", len(g.ids))
		text = safeLine(strings.Join(g.ids, ", "), 300) + ": " + text
	}
	return []gridCell{
		{text: "n/a", style: naStyle},
		{text: safeLine(name, 40), style: naStyle},
		{style: plainStyle},
		{text: text, style: naStyle, expand: true},
	}
}

// naGroup is the rules that cannot run for one reason, ids sorted.
type naGroup struct {
	ids    []string
	reason string
}

func groupNotApplicable(na map[string]string) []naGroup {
	byReason := map[string]*naGroup{}
	var groups []*naGroup
	ids := make([]string, 0, len(na))
	for id := range na {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		g := byReason[na[id]]
		if g == nil {
			g = &naGroup{reason: na[id]}
			byReason[na[id]] = g
			groups = append(groups, g)
		}
		g.ids = append(g.ids, id)
	}
	out := make([]naGroup, len(groups))
	for i, g := range groups {
		out[i] = *g
	}
	return out
}

// activeFor is how long a finding has been active; "-" when the analyzer did
// not say since when.
func activeFor(at, since time.Time) string {
	if since.IsZero() {
		return "-"
	}
	return clock(at.Sub(since))
}

func severityLabel(s snapshot.Severity) (string, tcell.Color) {
	switch s {
	case snapshot.Critical:
		return "CRIT", tcell.ColorRed
	case snapshot.Warning:
		return "WARN", tcell.ColorYellow
	default:
		return "INFO", tcell.ColorDodgerBlue
	}
}

// selected returns the selected finding, or nil.
func (p *findingsPanel) selected() *snapshot.Finding {
	row := p.grid.sel
	if row < 0 || row >= len(p.findings) {
		return nil
	}
	return &p.findings[row]
}

func (p *findingsPanel) selectedID() string {
	if f := p.selected(); f != nil {
		return f.ID
	}
	return ""
}

// listRows is how many table lines the panel needs.
func (p *findingsPanel) listRows() int { return max(len(p.findings), 1) + len(p.na) + p.rootRows() }

// detailLines are the selected finding's evidence and advice, wrapped.
func (p *findingsPanel) detailLines(width int) []string {
	return findingDetail(p.selected(), width)
}

// findingDetail is f's evidence and advice, wrapped to width.
func findingDetail(f *snapshot.Finding, width int) []string {
	if f == nil || width < 10 {
		return nil
	}
	var lines []string
	if len(f.CausedBy) > 0 {
		cause := "[::b]caused by[::-] " + safeLine(strings.Join(f.CausedBy, ", "), 200)
		if len(f.CauseThreads) > 0 {
			cause += " (threads " + safeLine(joinInts(f.CauseThreads, 10), 200) + ")"
		}
		lines = append(lines, wrapIndented("", cause, width)...)
	}
	for _, e := range f.Evidence {
		lines = append(lines, wrapIndented("• ", safeLine(e, 500), width)...)
	}
	if f.Advice != "" {
		lines = append(lines, wrapIndented("[::b]advice[::-] ", safeLine(f.Advice, 800), width)...)
	}
	return lines
}

// wantHeight is the panel's height including borders, at most limit.
func (p *findingsPanel) wantHeight(limit, width int) int {
	h := p.listRows() + 2
	if p.HasFocus() {
		h += len(p.detailLines(width - 2))
	}
	return min(h, limit)
}

func (p *findingsPanel) Draw(screen tcell.Screen) {
	p.Box.DrawForSubclass(screen, p)
	x, y, w, h := p.GetInnerRect()
	if h <= 0 {
		return
	}
	if p.root != "" {
		printLine(screen, p.root, x, y, w, tview.AlignLeft, textColor)
		y, h = y+1, h-1
		if h <= 0 {
			return
		}
	}
	var detail []string
	if p.HasFocus() {
		detail = p.detailLines(w)
	}
	// The list keeps at least two lines (or all it has) before details get any.
	rows := p.listRows() - p.rootRows()
	listH := min(rows, h)
	if len(detail) > 0 {
		listH = min(rows, max(h-len(detail), min(2, h)))
	}
	p.grid.draw(screen, x, y, w, listH)
	for i, line := range detail {
		if listH+i >= h {
			break
		}
		printLine(screen, line, x, y+listH+i, w, tview.AlignLeft, tcell.ColorSilver)
	}
}

func (p *findingsPanel) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return func(ev *tcell.EventKey, _ func(tview.Primitive)) {
		if p.grid.handleKey(ev) && p.selectionChanged != nil {
			p.selectionChanged()
		}
	}
}

// wrapIndented word-wraps text to width, the first line after prefix and the
// rest indented under it.
func wrapIndented(prefix, text string, width int) []string {
	indent := tview.TaggedStringWidth(prefix)
	if width-indent < 10 {
		return []string{prefix + text}
	}
	wrapped := tview.WordWrap(text, width-indent)
	for i := range wrapped {
		if i == 0 {
			wrapped[i] = prefix + wrapped[i]
		} else {
			wrapped[i] = strings.Repeat(" ", indent) + wrapped[i]
		}
	}
	return wrapped
}

func itoa(n int) string { return commas(int64(n)) }

// joinInts lists up to limit numbers, comma separated.
func joinInts(ids []int64, limit int) string {
	parts := make([]string, 0, min(len(ids), limit))
	for _, id := range ids[:min(len(ids), limit)] {
		parts = append(parts, strconv.FormatInt(id, 10))
	}
	out := strings.Join(parts, ", ")
	if len(ids) > limit {
		out += " …"
	}
	return out
}
