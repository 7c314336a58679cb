package picture

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/text/unicode/norm"
)

// PNG cell geometry in pixels. Go Mono at fontSize px advances exactly
// CellWidth, an odd width that centres vertical box strokes on a pixel, and
// its │ is a little over CellHeight tall, so borders join without gaps. An
// image is cols×CellWidth by rows×CellHeight pixels.
const (
	CellWidth  = 9
	CellHeight = 17
	fontSize   = 15
)

// writePNG writes the screen as a PNG image (see Image).
func writePNG(w io.Writer, screen tcell.SimulationScreen) error {
	img, err := Image(screen)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, img)
}

// Image paints the screen: backgrounds first, then glyphs in Go Mono (bold
// cells in Go Mono Bold), block elements as rectangles, and a box outline
// for a rune the font lacks.
func Image(screen tcell.SimulationScreen) (*image.RGBA, error) {
	g, err := readGrid(screen)
	if err != nil {
		return nil, err
	}
	regular, bold, err := newGlyphCaches()
	if err != nil {
		return nil, err
	}
	p := painter{
		img:     image.NewRGBA(image.Rect(0, 0, g.cols*CellWidth, g.rows*CellHeight)),
		regular: regular, bold: bold,
		inks: map[color.RGBA]*image.Uniform{},
	}
	for i, c := range g.cells {
		p.fill(cellRect(i%g.cols, i/g.cols, 1), c.paint.bg)
	}
	// Glyphs go on after every background, as descenders and box lines may
	// reach a little into the next row.
	for i, c := range g.cells {
		p.cell(c, i%g.cols, i/g.cols)
	}
	return p.img, nil
}

// painter draws cells onto one image.
type painter struct {
	img           *image.RGBA
	regular, bold *glyphCache
	inks          map[color.RGBA]*image.Uniform // one per colour, not one per cell
}

func (p *painter) cell(c cell, x, y int) {
	faces := p.regular
	if c.paint.bold {
		faces = p.bold
	}
	if c.paint.underline {
		row := y*CellHeight + faces.baseline.Ceil() + 1
		p.fill(image.Rect(x*CellWidth, row, (x+1)*CellWidth, row+1), c.paint.fg)
	}
	if c.width == 0 || c.text == " " {
		return
	}
	box := cellRect(x, y, c.width)
	if a, ok := blockArea(c.text); ok {
		p.fill(scaleArea(box, a), c.paint.fg)
		return
	}
	// Go Mono has precomposed letters but no combining marks.
	for i, r := range norm.NFC.String(c.text) {
		g := faces.get(r)
		switch {
		case g.ok:
			// Centre a glyph in its cells: a wide rune gets two.
			dr := g.rect.Add(box.Min).Add(image.Pt((box.Dx()-CellWidth)/2, 0))
			draw.DrawMask(p.img, dr, p.ink(c.paint.fg), image.Point{}, g.mask, image.Point{}, draw.Over)
		case i == 0:
			p.placeholder(box, c.paint.fg)
		}
	}
}

// placeholder outlines the cell so that a rune the font lacks still shows.
func (p *painter) placeholder(box image.Rectangle, c color.RGBA) {
	in := image.Rect(box.Min.X+1, box.Min.Y+2, box.Max.X-1, box.Max.Y-2)
	p.fill(image.Rect(in.Min.X, in.Min.Y, in.Max.X, in.Min.Y+1), c)
	p.fill(image.Rect(in.Min.X, in.Max.Y-1, in.Max.X, in.Max.Y), c)
	p.fill(image.Rect(in.Min.X, in.Min.Y, in.Min.X+1, in.Max.Y), c)
	p.fill(image.Rect(in.Max.X-1, in.Min.Y, in.Max.X, in.Max.Y), c)
}

func (p *painter) fill(r image.Rectangle, c color.RGBA) {
	draw.Draw(p.img, r, p.ink(c), image.Point{}, draw.Src)
}

func (p *painter) ink(c color.RGBA) *image.Uniform {
	u, ok := p.inks[c]
	if !ok {
		u = image.NewUniform(c)
		p.inks[c] = u
	}
	return u
}

// cellRect is the pixel rectangle of width cells starting at column x, row y.
func cellRect(x, y, width int) image.Rectangle {
	return image.Rect(x*CellWidth, y*CellHeight, (x+width)*CellWidth, (y+1)*CellHeight)
}

// scaleArea maps a fraction of a cell onto the cell's pixels.
func scaleArea(box image.Rectangle, a area) image.Rectangle {
	w, h := float64(box.Dx()), float64(box.Dy())
	return image.Rect(
		box.Min.X+int(math.Round(a.x0*w)), box.Min.Y+int(math.Round(a.y0*h)),
		box.Min.X+int(math.Round(a.x1*w)), box.Min.Y+int(math.Round(a.y1*h)))
}
