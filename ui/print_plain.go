package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// printLine is tview.Print for the dashboard's own lines (header, footer,
// panels, findings). tview steps every character through Unicode grapheme,
// word and line-break state machines, twice, to find style tags and wide
// characters; for printable ASCII without '[' there are neither, and that
// stepping was most of a frame's draw besides the processlist table. Such a
// line is put cell by cell exactly as tview would put it (same alignment and
// cut, the background of the cell underneath kept); anything else goes to
// tview.Print. TestPrintLineMatchesTview holds the two to the same cells.
func printLine(screen tcell.Screen, text string, x, y, maxWidth, align int, color tcell.Color) {
	if !plainASCII(text) {
		tview.Print(screen, text, x, y, maxWidth, align, color)
		return
	}
	totalWidth, totalHeight := screen.Size()
	if maxWidth <= 0 || len(text) == 0 || y < 0 || y >= totalHeight {
		return
	}
	width := len(text)
	switch align {
	case tview.AlignRight:
		if width > maxWidth {
			text, width = text[width-maxWidth:], maxWidth
		}
		x, maxWidth = x+maxWidth-width, width
	case tview.AlignCenter:
		if cut := (width - maxWidth) / 2; cut > 0 {
			text, width = text[cut:], width-cut
		}
		if width < maxWidth {
			x, maxWidth = x+maxWidth/2-width/2, width
		}
	}
	style := tcell.StyleDefault.Foreground(color)
	right := x + maxWidth
	for i := 0; i < len(text) && x < right && x < totalWidth; i++ {
		_, _, under, _ := screen.GetContent(x, y)
		_, bg, _ := under.Decompose()
		screen.SetContent(x, y, rune(text[i]), nil, style.Background(bg))
		x++
	}
}

// plainASCII reports printable ASCII without '[', which tview would read as
// the start of a style tag.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '[' {
			return false
		}
	}
	return true
}
