package ui

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// asciiScreen hands a single ASCII rune to Put as a string made once:
// tcell's SetContent builds a string from a rune slice on every call, and
// tview calls it for every cell it clears, prints and colours, which made
// half of a frame's 37,000 allocations (and their garbage collection).
type asciiScreen struct{ tcell.Screen }

// asciiCells holds the one-character string of each ASCII rune.
var asciiCells = func() (cells [utf8.RuneSelf]string) {
	for i := range cells {
		cells[i] = string(rune(i))
	}
	return cells
}()

// SetContent is tcell's, without the allocation for an ASCII rune.
func (s asciiScreen) SetContent(x, y int, mainc rune, combc []rune, style tcell.Style) {
	s.Put(x, y, cellText(mainc, combc), style)
}

// cellText is the string tcell's SetContent puts for mainc and combc, made
// once for an ASCII rune.
func cellText(mainc rune, combc []rune) string {
	if len(combc) == 0 && mainc >= 0 && mainc < utf8.RuneSelf {
		return asciiCells[mainc]
	}
	return string(append([]rune{mainc}, combc...))
}

// withASCIICells wraps screen once; a frameScreen makes no allocation for
// an ASCII rune already.
func withASCIICells(screen tcell.Screen) tcell.Screen {
	switch screen.(type) {
	case asciiScreen, *frameScreen:
		return screen
	}
	return asciiScreen{screen}
}
