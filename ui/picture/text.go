package picture

import (
	"io"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// text returns the screen's characters, one line per row with trailing
// blanks trimmed; a wide rune stands once for its two cells. A screen
// without cells gives "".
func text(screen tcell.SimulationScreen) string {
	g, err := readGrid(screen)
	if err != nil {
		return ""
	}
	return gridText(g)
}

// writeText writes text(screen) to w.
func writeText(w io.Writer, screen tcell.SimulationScreen) error {
	g, err := readGrid(screen)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, gridText(g))
	return err
}

func gridText(g grid) string {
	var b strings.Builder
	for y := range g.rows {
		var line strings.Builder
		for _, c := range g.row(y) {
			line.WriteString(c.text)
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
