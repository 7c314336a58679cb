package picture

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// cell is one screen cell as it will be painted.
type cell struct {
	text  string // main rune plus combining marks; "" on the right half of a wide rune
	width int    // 1, 2 for a wide rune, 0 for the right half of one
	paint paint
}

// grid is the screen's cells, row-major.
type grid struct {
	cols, rows int
	cells      []cell
}

func (g grid) row(y int) []cell { return g.cells[y*g.cols : (y+1)*g.cols] }

var errNoScreen = errors.New("picture: no screen to draw")

// readGrid copies the screen's shown contents. A wide rune's right-hand cell
// is left stale by tcell, so it is rebuilt as a continuation carrying the wide
// rune's colours.
func readGrid(screen tcell.SimulationScreen) (grid, error) {
	if screen == nil {
		return grid{}, errNoScreen
	}
	raw, cols, rows := screen.GetContents()
	if cols <= 0 || rows <= 0 {
		return grid{}, fmt.Errorf("picture: the screen has no cells (%d×%d)", cols, rows)
	}
	if len(raw) < cols*rows {
		return grid{}, fmt.Errorf("picture: screen reports %d×%d but holds %d cells", cols, rows, len(raw))
	}
	g := grid{cols: cols, rows: rows, cells: make([]cell, cols*rows)}
	for y := range rows {
		for x := 0; x < cols; x++ {
			i := y*cols + x
			c := cell{text: cellText(raw[i].Runes), width: 1, paint: resolve(raw[i].Style)}
			if x+1 < cols && uniseg.StringWidth(c.text) == 2 {
				c.width = 2
				g.cells[i+1] = cell{paint: c.paint}
				g.cells[i] = c
				x++
				continue
			}
			g.cells[i] = c
		}
	}
	return g, nil
}

// cellText makes a cell's runes safe to print: an empty or control main rune
// becomes a blank, unprintable combining runes are dropped. This also keeps
// the SVG valid XML.
func cellText(runes []rune) string {
	if len(runes) == 0 || !printable(runes[0]) {
		return " "
	}
	var b strings.Builder
	b.WriteRune(runes[0])
	for _, r := range runes[1:] {
		if printable(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func printable(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return false
	case r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff, r > 0x10ffff:
		return false
	}
	return true
}
