package picture

import (
	"fmt"
	"image/color"

	"github.com/gdamore/tcell/v2"
)

// The colours shown for tcell.ColorDefault, as on a dark terminal theme: the
// dashboard leaves most cells in the default colours and relies on them.
var (
	defaultForeground = color.RGBA{R: 0xd0, G: 0xd0, B: 0xd0, A: 0xff}
	defaultBackground = color.RGBA{R: 0x12, G: 0x12, B: 0x12, A: 0xff}
)

// paint is a cell's style resolved to what is actually put on the picture.
type paint struct {
	fg, bg    color.RGBA
	bold      bool
	underline bool
}

// resolve turns a tcell style into concrete colours: default and unset
// colours become the theme colours, Reverse swaps foreground and background
// after that, and Dim pulls the foreground halfway to the background.
func resolve(st tcell.Style) paint {
	fgc, bgc, attrs := st.Decompose()
	p := paint{
		fg:        rgb(fgc, defaultForeground),
		bg:        rgb(bgc, defaultBackground),
		bold:      attrs&tcell.AttrBold != 0,
		underline: st.GetUnderlineStyle() != tcell.UnderlineStyleNone,
	}
	if attrs&tcell.AttrReverse != 0 {
		p.fg, p.bg = p.bg, p.fg
	}
	if attrs&tcell.AttrDim != 0 {
		p.fg = midpoint(p.fg, p.bg)
	}
	return p
}

// rgb resolves named, palette and RGB colours; anything without an RGB value
// (default, reset, none) gets fallback.
func rgb(c tcell.Color, fallback color.RGBA) color.RGBA {
	r, g, b := c.RGB()
	if r < 0 || g < 0 || b < 0 {
		return fallback
	}
	return color.RGBA{R: uint8(r), G: uint8(g), B: uint8(b), A: 0xff}
}

func midpoint(a, b color.RGBA) color.RGBA {
	mid := func(x, y uint8) uint8 { return uint8((int(x) + int(y)) / 2) }
	return color.RGBA{R: mid(a.R, b.R), G: mid(a.G, b.G), B: mid(a.B, b.B), A: 0xff}
}

// hexColor formats c as #rrggbb for SVG attributes.
func hexColor(c color.RGBA) string {
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}
