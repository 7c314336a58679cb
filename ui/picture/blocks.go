package picture

// area is a part of a cell as fractions of its width and height, from the
// top-left corner.
type area struct{ x0, y0, x1, y1 float64 }

// blockArea returns the part of the cell a block element fills. Sparklines
// are built from these, and fonts often lack them or draw them shorter than
// the cell, so they are painted as rectangles instead of glyphs.
func blockArea(text string) (area, bool) {
	if len(text) != 3 { // every block element is 3 bytes of UTF-8
		return area{}, false
	}
	r := []rune(text)
	if len(r) != 1 {
		return area{}, false
	}
	switch c := r[0]; {
	case c == '▀':
		return area{0, 0, 1, 0.5}, true
	case c >= '▁' && c <= '█': // lower one eighth … full block
		return area{0, 1 - float64(c-'▁'+1)/8, 1, 1}, true
	case c >= '▉' && c <= '▏': // left seven eighths … left one eighth
		return area{0, 0, float64('▏'-c+1) / 8, 1}, true
	case c == '▐':
		return area{0.5, 0, 1, 1}, true
	case c == '▔':
		return area{0, 0, 1, 0.125}, true
	case c == '▕':
		return area{0.875, 0, 1, 1}, true
	}
	return area{}, false
}
