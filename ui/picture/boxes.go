package picture

import (
	"image"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// Box-drawing strokes are about one pixel wide. Antialiased across a pixel
// boundary they show as grey two-pixel smears with faint seams where cells
// meet. An odd CellWidth centres vertical strokes on a pixel; box-drawing
// glyphs are nudged up until horizontal strokes start on a pixel row, and
// then snapped to fully on or off pixels: borders come out crisp and join
// exactly.

func isBoxDrawing(r rune) bool { return r >= 0x2500 && r <= 0x257f }

// boxNudge is the upward sub-pixel shift that puts the top edge of ─ on a
// whole pixel, given the baseline used for all glyphs. Upward, so that │
// still reaches the top of its cell.
func boxNudge(face font.Face, baseline fixed.Int26_6) fixed.Point26_6 {
	b, _, ok := face.GlyphBounds('─')
	if !ok {
		return fixed.Point26_6{}
	}
	top := baseline + b.Min.Y
	return fixed.Point26_6{Y: fixed.I(top.Floor()) - top}
}

// snapToPixels makes every pixel of a mask fully on or off.
func snapToPixels(mask *image.Alpha) {
	for i, a := range mask.Pix {
		if a >= 0x80 {
			mask.Pix[i] = 0xff
		} else {
			mask.Pix[i] = 0
		}
	}
}
