package picture

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// SVG cell geometry: a 14 px monospace font advances about 8.4 px and wants
// about 17 px of line height.
const (
	svgCellWidth  = 8.4
	svgCellHeight = 17.0
	svgFontSize   = 14
	svgBaseline   = 13.0 // from the top of a row
	svgFontFamily = "'DejaVu Sans Mono', 'Go Mono', Menlo, Consolas, 'Liberation Mono', monospace"
)

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// writeSVG writes the screen as an SVG image: one rectangle per run of equal
// background, block elements as rectangles, one <text> per run of equal style.
func writeSVG(w io.Writer, screen tcell.SimulationScreen) error {
	g, err := readGrid(screen)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	width, height := num(float64(g.cols)*svgCellWidth), num(float64(g.rows)*svgCellHeight)
	fmt.Fprintf(bw, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"+
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\">\n",
		width, height, width, height)
	fmt.Fprintf(bw, "<rect width=\"%s\" height=\"%s\" fill=\"%s\"/>\n", width, height, hexColor(defaultBackground))
	bw.WriteString("<g shape-rendering=\"crispEdges\">\n")
	for y := range g.rows {
		svgBackgrounds(bw, g.row(y), y)
		svgBlocks(bw, g.row(y), y)
	}
	fmt.Fprintf(bw, "</g>\n<g font-family=\"%s\" font-size=\"%d\" xml:space=\"preserve\">\n", svgFontFamily, svgFontSize)
	for y := range g.rows {
		svgTexts(bw, g.row(y), y)
	}
	bw.WriteString("</g>\n</svg>\n")
	return bw.Flush()
}

// svgBackgrounds draws each run of one non-default background colour.
func svgBackgrounds(w io.Writer, row []cell, y int) {
	for start := 0; start < len(row); {
		end := start + 1
		for end < len(row) && row[end].paint.bg == row[start].paint.bg {
			end++
		}
		if bg := row[start].paint.bg; bg != defaultBackground {
			svgRect(w, float64(start), float64(y), float64(end-start), 1, hexColor(bg))
		}
		start = end
	}
}

func svgBlocks(w io.Writer, row []cell, y int) {
	for x, c := range row {
		if a, ok := blockArea(c.text); ok {
			svgRect(w, float64(x)+a.x0, float64(y)+a.y0, a.x1-a.x0, a.y1-a.y0, hexColor(c.paint.fg))
		}
	}
}

// svgRect draws a rectangle given in cell units.
func svgRect(w io.Writer, x, y, cols, rows float64, fill string) {
	fmt.Fprintf(w, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"/>\n",
		num(x*svgCellWidth), num(y*svgCellHeight), num(cols*svgCellWidth), num(rows*svgCellHeight), fill)
}

// svgTexts draws each run of cells that share a style. textLength pins every
// run to its cells, so a font with another advance cannot drift the columns.
func svgTexts(w io.Writer, row []cell, y int) {
	for start := 0; start < len(row); {
		end := start + 1
		for end < len(row) && sameTextRun(row[start], row[end]) {
			end++
		}
		first, last := trimBlanks(row, start, end)
		if first < last && !isBlock(row[first]) {
			svgText(w, row[first:last], first, y)
		}
		start = end
	}
}

func svgText(w io.Writer, run []cell, x, y int) {
	var text strings.Builder
	for _, c := range run {
		text.WriteString(c.text)
	}
	p := run[0].paint
	fmt.Fprintf(w, "<text x=\"%s\" y=\"%s\" fill=\"%s\"", num(float64(x)*svgCellWidth),
		num(float64(y)*svgCellHeight+svgBaseline), hexColor(p.fg))
	if len(run) > 1 {
		fmt.Fprintf(w, " textLength=\"%s\"", num(float64(len(run))*svgCellWidth))
	}
	if p.bold {
		io.WriteString(w, " font-weight=\"bold\"")
	}
	if p.underline {
		io.WriteString(w, " text-decoration=\"underline\"")
	}
	fmt.Fprintf(w, ">%s</text>\n", xmlEscaper.Replace(text.String()))
}

// sameTextRun reports whether b continues a's run: same text style, and
// both wide (or continuations) or both narrow, and both blocks or neither.
func sameTextRun(a, b cell) bool {
	pa, pb := a.paint, b.paint
	return pa.fg == pb.fg && pa.bold == pb.bold && pa.underline == pb.underline &&
		(a.width == 1) == (b.width == 1) && isBlock(a) == isBlock(b)
}

func isBlock(c cell) bool {
	_, ok := blockArea(c.text)
	return ok
}

// trimBlanks narrows [start,end) to leave out blank cells at either end,
// unless they are underlined.
func trimBlanks(row []cell, start, end int) (int, int) {
	blank := func(c cell) bool { return c.text == " " && !c.paint.underline }
	for start < end && blank(row[start]) {
		start++
	}
	for end > start && blank(row[end-1]) {
		end--
	}
	return start, end
}

// num formats a coordinate without float noise (25.200000000000003 → 25.2).
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}
