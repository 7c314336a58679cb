package picture

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"

	"github.com/gdamore/tcell/v2"
)

// PNG cell geometry in pixels. Go Mono at FontSize advances exactly
// CellWidth, and its box-drawing glyphs are CellHeight tall, so horizontal
// and vertical borders join without gaps. An image is cols×CellWidth by
// rows×CellHeight pixels.
const (
	CellWidth  = 8
	CellHeight = 15
	FontSize   = 40.0 / 3
)

// WritePNG writes the screen as a PNG image (see Image).
func WritePNG(w io.Writer, screen tcell.SimulationScreen) error {
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
	img := image.NewRGBA(image.Rect(0, 0, g.cols*CellWidth, g.rows*CellHeight))
	for i, c := range g.cells {
		fill(img, cellRect(i%g.cols, i/g.cols, 1), c.paint.bg)
	}
	// Glyphs go on after every background, as descenders and box lines may
	// reach a little into the next row.
	for i, c := range g.cells {
		faces := regular
		if c.paint.bold {
			faces = bold
		}
		paintCell(img, faces, c, i%g.cols, i/g.cols)
	}
	return img, nil
}

func paintCell(img *image.RGBA, faces *glyphCache, c cell, x, y int) {
	if c.width == 0 || c.text == " " {
		if c.paint.underline {
			underline(img, faces, c, x, y)
		}
		return
	}
	box := cellRect(x, y, c.width)
	if a, ok := blockArea(c.text); ok {
		fill(img, scaleArea(box, a), c.paint.fg)
		return
	}
	for i, r := range c.text {
		g := faces.get(r)
		switch {
		case g.ok:
			// Centre a glyph in its cells: a wide rune gets two.
			dx := (c.width*CellWidth - CellWidth) / 2
			dr := g.rect.Add(box.Min).Add(image.Pt(dx, 0))
			draw.DrawMask(img, dr, &image.Uniform{C: c.paint.fg}, image.Point{}, g.mask, image.Point{}, draw.Over)
		case i == 0:
			placeholder(img, box, c.paint.fg)
		}
	}
	if c.paint.underline {
		underline(img, faces, c, x, y)
	}
}

// cellRect is the pixel rectangle of width cells starting at column x, row y.
func cellRect(x, y, width int) image.Rectangle {
	return image.Rect(x*CellWidth, y*CellHeight, (x+width)*CellWidth, (y+1)*CellHeight)
}

func scaleArea(box image.Rectangle, a area) image.Rectangle {
	w, h := float64(box.Dx()), float64(box.Dy())
	return image.Rect(
		box.Min.X+int(math.Round(a.x0*w)), box.Min.Y+int(math.Round(a.y0*h)),
		box.Min.X+int(math.Round(a.x1*w)), box.Min.Y+int(math.Round(a.y1*h)))
}

// placeholder outlines the cell so that a rune the font lacks still shows.
func placeholder(img *image.RGBA, box image.Rectangle, c color.RGBA) {
	in := image.Rect(box.Min.X+1, box.Min.Y+2, box.Max.X-1, box.Max.Y-2)
	fill(img, image.Rect(in.Min.X, in.Min.Y, in.Max.X, in.Min.Y+1), c)
	fill(img, image.Rect(in.Min.X, in.Max.Y-1, in.Max.X, in.Max.Y), c)
	fill(img, image.Rect(in.Min.X, in.Min.Y, in.Min.X+1, in.Max.Y), c)
	fill(img, image.Rect(in.Max.X-1, in.Min.Y, in.Max.X, in.Max.Y), c)
}

func underline(img *image.RGBA, faces *glyphCache, c cell, x, y int) {
	row := y*CellHeight + faces.baseline.Ceil() + 1
	cells := max(c.width, 1)
	fill(img, image.Rect(x*CellWidth, row, (x+cells)*CellWidth, row+1), c.paint.fg)
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, &image.Uniform{C: c}, image.Point{}, draw.Src)
}
