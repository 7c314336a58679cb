package ui

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// printCell fills width cells at x, y with a grid cell's text the way
// tview's Table put a cell over its cleared area: aligned left or right, cut at width (a
// right-aligned text loses its start), and a cut marked by '…' over its last
// cell. Text of one cell per rune (see narrowText) is put rune by rune;
// anything else (wide, combining or tagged text) goes through tview.Print
// so it lands where tview put it.
func printCell(screen tcell.Screen, text string, x, y, width int, right bool, style tcell.Style) {
	if width <= 0 {
		return
	}
	var printed int
	if narrowText(text) {
		printed = printNarrow(screen, text, x, y, width, right, style)
	} else {
		printed = printWide(screen, text, x, y, width, right, style)
	}
	markCut(screen, text, printed, x, y, width)
}

// print puts the cell in width cells at x, y. A tagged cell's style can only
// be a colour: tview.Print is given that and the tags style the rest.
func (c gridCell) print(screen tcell.Screen, x, y, width int) {
	if !c.tagged {
		printCell(screen, c.text, x, y, width, c.right, c.style)
		return
	}
	if width <= 0 {
		return
	}
	align := tview.AlignLeft
	if c.right {
		align = tview.AlignRight
	}
	blank(screen, x, y, width)
	fg, _, _ := c.style.Decompose()
	printed, _ := tview.Print(screen, c.text, x, y, width, align, fg)
	markCut(screen, c.text, printed, x, y, width)
}

// markCut puts tview's Table's '…' over a cut text's last cell. printed
// counts bytes, not cells: the Table compares the two, so a cut text of
// multi-byte runes can go without its '…'. Kept to match.
func markCut(screen tcell.Screen, text string, printed, x, y, width int) {
	if textWidth(text)-printed > 0 && printed > 0 {
		_, _, under, _ := screen.GetContent(x+width-1, y)
		screen.SetContent(x+width-1, y, '…', nil, under)
	}
}

// printNarrow puts text of one cell per rune and returns the bytes put.
func printNarrow(screen tcell.Screen, text string, x, y, width int, right bool, style tcell.Style) int {
	if right {
		for n := utf8.RuneCountInString(text); n > width; n-- {
			_, size := utf8.DecodeRuneInString(text)
			text = text[size:]
		}
		pad := width - utf8.RuneCountInString(text)
		blank(screen, x, y, pad)
		x, width = x+pad, width-pad
	}
	screenWidth, _ := screen.Size()
	end := min(x+width, screenWidth)
	printed := 0
	for i, r := range text {
		if x >= end {
			break
		}
		screen.SetContent(x, y, r, nil, style)
		x++
		printed = i + utf8.RuneLen(r)
	}
	blank(screen, x, y, end-x)
	return printed
}

// printWide is tview.Print in the cell's style: Print takes a colour only,
// so the cells it put are given the style's attributes after.
func printWide(screen tcell.Screen, text string, x, y, width int, right bool, style tcell.Style) int {
	align := tview.AlignLeft
	if right {
		align = tview.AlignRight
	}
	blank(screen, x, y, width)
	fg, _, _ := style.Decompose()
	printed, cells := tview.Print(screen, text, x, y, width, align, fg)
	if right {
		x += width - cells
	}
	for i := x; i < x+cells; i++ {
		m, c, under, _ := screen.GetContent(i, y)
		_, bg, _ := under.Decompose()
		screen.SetContent(i, y, m, c, style.Background(bg))
	}
	return printed
}

// blank clears n cells from x, y.
func blank(screen tcell.Screen, x, y, n int) {
	for i := x; i < x+n; i++ {
		screen.SetContent(i, y, ' ', nil, tcell.StyleDefault)
	}
}

// narrowText reports text of one cell per rune: printable ASCII without
// '[' (which tview would read as a style tag) and the few signs the panel
// writes itself (a cut's '…', a missing figure's '–', the sort arrows).
func narrowText(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c >= ' ' && c <= '~' && c != '[' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '…', '–', '▲', '▼':
		default:
			return false
		}
		i += size
	}
	return true
}

// textWidth is the cells tview gives text.
func textWidth(s string) int {
	if narrowText(s) {
		return utf8.RuneCountInString(s)
	}
	return tview.TaggedStringWidth(s)
}
