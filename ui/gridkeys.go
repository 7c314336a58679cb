package ui

import "github.com/gdamore/tcell/v2"

// runeMoves are the letters tview's Table read as moves.
var runeMoves = map[rune]tcell.Key{'k': tcell.KeyUp, 'j': tcell.KeyDown, 'g': tcell.KeyHome, 'G': tcell.KeyEnd}

// selectionTarget is the row a selection key asks for, from sel, with page
// rows a page and last the last selectable row, before bounding.
func selectionTarget(ev *tcell.EventKey, sel, page, last int) (int, bool) {
	key := ev.Key()
	if key == tcell.KeyRune {
		if key = runeMoves[ev.Rune()]; key == 0 {
			return 0, false
		}
	}
	switch key {
	case tcell.KeyUp:
		return sel - 1, true
	case tcell.KeyDown:
		return sel + 1, true
	case tcell.KeyPgUp, tcell.KeyCtrlB:
		return sel - page, true
	case tcell.KeyPgDn, tcell.KeyCtrlF:
		return sel + page, true
	case tcell.KeyHome:
		return 0, true
	case tcell.KeyEnd:
		return last, true
	}
	return 0, false
}
