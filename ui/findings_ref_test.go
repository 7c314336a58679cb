package ui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// tviewFindingsPanel is the findings panel as it was before findingsGrid:
// its list a tview.Table. It stays here only as the reference the grid is
// held to, cell for cell and key for key, and as the cost it is measured
// against. The data (sorting, groups, root cause) is the panel's own.
type tviewFindingsPanel struct {
	*findingsPanel
	table *tview.Table
}

func newTviewFindingsPanel() *tviewFindingsPanel {
	p := &tviewFindingsPanel{findingsPanel: newFindingsPanel(), table: newTable()}
	p.table.SetSelectable(true, false).SetSelectedStyle(tcell.StyleDefault.Reverse(true))
	return p
}

func (p *tviewFindingsPanel) set(f *snapshot.Frame) {
	keep := p.selectedID()
	p.findingsPanel.set(f)
	p.fillTable()
	p.table.SetOffset(0, 0)
	p.table.Select(0, 0)
	for i := range p.findings {
		if p.findings[i].ID == keep {
			p.table.Select(i, 0)
		}
	}
}

func (p *tviewFindingsPanel) fillTable() {
	p.table.Clear()
	p.table.SetFixed(min(len(p.findings), 1), 0)
	if len(p.findings) == 0 {
		p.table.SetCell(0, 0, cell("[green]no findings[-]").SetSelectable(false))
	}
	for i, f := range p.findings {
		sev, color := severityLabel(f.Severity)
		p.table.SetCell(i, 0, tview.NewTableCell(sev).SetTextColor(color).SetAttributes(tcell.AttrBold))
		p.table.SetCell(i, 1, cell(safeLine(f.ID, 40)))
		p.table.SetCell(i, 2, cell(activeFor(p.at, f.Since)).SetAlign(tview.AlignRight))
		title := safeLine(f.Title, 300)
		if len(f.CausedBy) > 0 {
			title += " [::d]← " + safeLine(strings.Join(f.CausedBy, ", "), 100) + "[::-]"
		}
		p.table.SetCell(i, 3, cell(title).SetExpansion(1))
	}
	base := max(len(p.findings), 1)
	dim := tcell.StyleDefault.Foreground(tcell.ColorGray).Dim(true)
	for i, g := range p.na {
		name, text := g.ids[0], "not applicable: "+safeLine(g.reason, 200)
		if len(g.ids) > 1 {
			name = fmt.Sprintf("%d rules", len(g.ids))
			text = safeLine(strings.Join(g.ids, ", "), 300) + ": " + text
		}
		p.table.SetCell(base+i, 0, tview.NewTableCell("n/a").SetStyle(dim).SetSelectable(false))
		p.table.SetCell(base+i, 1, tview.NewTableCell(safeLine(name, 40)).SetStyle(dim).SetSelectable(false))
		p.table.SetCell(base+i, 2, cell("").SetSelectable(false))
		p.table.SetCell(base+i, 3, tview.NewTableCell(text).SetStyle(dim).SetSelectable(false).SetExpansion(1))
	}
}

func (p *tviewFindingsPanel) selected() *snapshot.Finding {
	row, _ := p.table.GetSelection()
	if row < 0 || row >= len(p.findings) {
		return nil
	}
	return &p.findings[row]
}

func (p *tviewFindingsPanel) selectedID() string {
	if f := p.selected(); f != nil {
		return f.ID
	}
	return ""
}

func (p *tviewFindingsPanel) Draw(screen tcell.Screen) {
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
		detail = findingDetail(p.selected(), w)
	}
	rows := p.listRows() - p.rootRows()
	listH := min(rows, h)
	if len(detail) > 0 {
		listH = min(rows, max(h-len(detail), min(2, h)))
	}
	p.table.SetRect(x, y, w, listH)
	p.table.Draw(screen)
	for i, line := range detail {
		if listH+i >= h {
			break
		}
		printLine(screen, line, x, y+listH+i, w, tview.AlignLeft, tcell.ColorSilver)
	}
}

func (p *tviewFindingsPanel) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return p.table.InputHandler()
}
