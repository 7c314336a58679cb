package ui

import "github.com/gdamore/tcell/v2"

// cursorKey moves a list's selection for the arrow, page, Home and End keys
// (n rows in the list) and says whether ev was one of them, so every view
// steps through its rows alike.
func cursorKey(ev *tcell.EventKey, n int, move func(int)) bool {
	step := map[tcell.Key]int{tcell.KeyUp: -1, tcell.KeyDown: 1, tcell.KeyPgUp: -10, tcell.KeyPgDn: 10,
		tcell.KeyHome: -n, tcell.KeyEnd: n}
	d, ok := step[ev.Key()]
	if ok {
		move(d)
	}
	return ok
}
