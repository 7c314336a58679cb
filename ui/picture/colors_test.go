package picture

import (
	"image/color"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestResolve(t *testing.T) {
	red := color.RGBA{R: 0xff, A: 0xff}
	white := color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	teal := color.RGBA{R: 0x12, G: 0x34, B: 0x56, A: 0xff}
	tests := []struct {
		name  string
		style tcell.Style
		want  paint
	}{
		{"default colours", tcell.StyleDefault, paint{fg: defaultForeground, bg: defaultBackground}},
		{"reset is default", tcell.StyleDefault.Foreground(tcell.ColorReset).Background(tcell.ColorNone),
			paint{fg: defaultForeground, bg: defaultBackground}},
		{"named colours", tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(tcell.ColorRed),
			paint{fg: white, bg: red}},
		{"palette colour", tcell.StyleDefault.Foreground(tcell.PaletteColor(196)),
			paint{fg: red, bg: defaultBackground}},
		{"rgb colour", tcell.StyleDefault.Background(tcell.NewRGBColor(0x12, 0x34, 0x56)),
			paint{fg: defaultForeground, bg: teal}},
		{"reverse of defaults", tcell.StyleDefault.Reverse(true),
			paint{fg: defaultBackground, bg: defaultForeground}},
		{"reverse of red on default", tcell.StyleDefault.Foreground(tcell.ColorRed).Reverse(true),
			paint{fg: defaultBackground, bg: red}},
		{"bold", tcell.StyleDefault.Bold(true), paint{fg: defaultForeground, bg: defaultBackground, bold: true}},
		{"underline", tcell.StyleDefault.Underline(true),
			paint{fg: defaultForeground, bg: defaultBackground, underline: true}},
		{"dim white on black", tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(tcell.ColorBlack).Dim(true),
			paint{fg: color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}, bg: color.RGBA{A: 0xff}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resolve(tt.style); got != tt.want {
				t.Errorf("resolve = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestHexColor(t *testing.T) {
	if got := hexColor(color.RGBA{R: 0xff, G: 0x0a, B: 0x00, A: 0xff}); got != "#ff0a00" {
		t.Errorf("hexColor = %q", got)
	}
}
