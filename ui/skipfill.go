package ui

import "github.com/gdamore/tcell/v2"

// skipFill drops the blanks a bordered box writes inside inner: tview's
// Box.DrawForSubclass clears its whole area before drawing the frame, and the
// processlist's grid drawn inside writes the same cells again, so a draw
// cleared some 10,000 cells twice at 200×50.
type skipFill struct {
	tcell.Screen
	inner rect
}

func (s skipFill) SetContent(x, y int, mainc rune, combc []rune, style tcell.Style) {
	r := s.inner
	if mainc == ' ' && len(combc) == 0 && x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h {
		return
	}
	s.Screen.SetContent(x, y, mainc, combc, style)
}
