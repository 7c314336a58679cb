package picture

import (
	"fmt"
	"image"
	"image/draw"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// glyph is a rasterised rune placed relative to its cell's top-left corner.
type glyph struct {
	rect image.Rectangle
	mask *image.Alpha
	ok   bool // false when the font has no such glyph
}

// glyphCache rasterises each rune of one face once: a dashboard screen
// repeats the same few dozen characters thousands of times.
type glyphCache struct {
	face     font.Face
	baseline fixed.Int26_6   // from the top of a cell
	boxNudge fixed.Point26_6 // extra shift for box-drawing runes, see boxes.go
	glyphs   map[rune]glyph
}

var parsedFonts struct {
	once          sync.Once
	regular, bold *opentype.Font
	err           error
}

// newGlyphCaches returns fresh caches for the regular and bold faces; faces
// are not safe for concurrent use, so each picture gets its own.
func newGlyphCaches() (regular, bold *glyphCache, err error) {
	parsedFonts.once.Do(func() {
		parsedFonts.regular, parsedFonts.err = opentype.Parse(gomono.TTF)
		if parsedFonts.err == nil {
			parsedFonts.bold, parsedFonts.err = opentype.Parse(gomonobold.TTF)
		}
	})
	if parsedFonts.err != nil {
		return nil, nil, fmt.Errorf("picture: loading Go Mono: %w", parsedFonts.err)
	}
	if regular, err = newGlyphCache(parsedFonts.regular); err != nil {
		return nil, nil, err
	}
	if bold, err = newGlyphCache(parsedFonts.bold); err != nil {
		return nil, nil, err
	}
	return regular, bold, nil
}

func newGlyphCache(f *opentype.Font) (*glyphCache, error) {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: fontSize, DPI: 72})
	if err != nil {
		return nil, fmt.Errorf("picture: Go Mono face: %w", err)
	}
	baseline := boxBaseline(face)
	return &glyphCache{face: face, baseline: baseline, boxNudge: boxNudge(face, baseline), glyphs: map[rune]glyph{}}, nil
}

// boxBaseline puts the top of the vertical box line at the top of the cell,
// so that borders drawn with the font join from row to row.
func boxBaseline(face font.Face) fixed.Int26_6 {
	if b, _, ok := face.GlyphBounds('│'); ok {
		return -b.Min.Y
	}
	return face.Metrics().Ascent
}

// get returns r rasterised, or a glyph with ok false when the font lacks it.
func (c *glyphCache) get(r rune) glyph {
	if g, ok := c.glyphs[r]; ok {
		return g
	}
	var g glyph
	dot := fixed.Point26_6{Y: c.baseline}
	if isBoxDrawing(r) {
		dot = dot.Add(c.boxNudge)
	}
	dr, mask, maskp, _, ok := c.face.Glyph(dot, r)
	if ok && mask != nil {
		// The face reuses its mask buffer, so keep a copy.
		own := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(own, own.Bounds(), mask, maskp, draw.Src)
		if isBoxDrawing(r) {
			snapToPixels(own)
		}
		g = glyph{rect: dr, mask: own, ok: true}
	}
	c.glyphs[r] = g
	return g
}
