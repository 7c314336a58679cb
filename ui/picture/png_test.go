package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func samplePNG(t *testing.T) image.Image {
	t.Helper()
	var b bytes.Buffer
	if err := writePNG(&b, sampleScreen(t)); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	return img
}

func rgbaAt(img image.Image, x, y int) color.RGBA {
	return color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
}

// countColour counts the pixels of cell (col,row) that are exactly c.
func countColour(img image.Image, col, row int, c color.RGBA) int {
	n := 0
	r := cellRect(col, row, 1)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgbaAt(img, x, y) == c {
				n++
			}
		}
	}
	return n
}

// countDark counts the pixels of cell (col,row) darker than mid-grey.
func countDark(img image.Image, col, row int) int {
	n := 0
	r := cellRect(col, row, 1)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := rgbaAt(img, x, y); int(c.R)+int(c.G)+int(c.B) < 3*0x80 {
				n++
			}
		}
	}
	return n
}

func TestPNGSizeIsCellsTimesCellSize(t *testing.T) {
	if b := samplePNG(t).Bounds(); b != image.Rect(0, 0, 14*CellWidth, 5*CellHeight) {
		t.Errorf("bounds = %v, want 14×%d by 5×%d", b, CellWidth, CellHeight)
	}
}

func TestPNGRedBackgroundCell(t *testing.T) {
	img := samplePNG(t)
	red := color.RGBA{R: 0xff, A: 0xff}
	if got := rgbaAt(img, 10*CellWidth, 0); got != red {
		t.Errorf("top-left pixel of the red cell = %v", got)
	}
	if n := countColour(img, 10, 0, red); n < CellWidth*CellHeight/2 {
		t.Errorf("red cell has %d red pixels of %d", n, CellWidth*CellHeight)
	}
	if n := countColour(img, 11, 0, red); n != 0 {
		t.Errorf("the cell beside it has %d red pixels", n)
	}
}

func TestPNGLowerBlockFillsItsBottom(t *testing.T) {
	img := samplePNG(t)
	green := color.RGBA{G: 0x80, A: 0xff}
	cell := cellRect(6, 0, 1) // ▅: 5/8 of 15 px ≈ the bottom 9 rows
	for x := cell.Min.X; x < cell.Max.X; x++ {
		if got := rgbaAt(img, x, cell.Max.Y-1); got != green {
			t.Fatalf("bottom of ▅ at x=%d is %v, want green", x, got)
		}
		if got := rgbaAt(img, x, cell.Max.Y-9); got != green {
			t.Fatalf("▅ at 9 px from the bottom, x=%d is %v, want green", x, got)
		}
		if got := rgbaAt(img, x, cell.Min.Y+1); got != defaultBackground {
			t.Fatalf("top of ▅ at x=%d is %v, want background", x, got)
		}
	}
	if n := countColour(img, 7, 0, green); n != CellWidth*CellHeight {
		t.Errorf("█ fills %d pixels, want the whole cell", n)
	}
}

func TestPNGDrawsGlyphsAndPlaceholders(t *testing.T) {
	img := samplePNG(t)
	tests := []struct {
		name     string
		col, row int
		minInk   int
	}{
		{"letter Q", 0, 0, 10},
		{"box corner", 0, 1, 8},
		{"horizontal box line", 1, 1, CellWidth},
		{"e with combining acute", 2, 2, 10},
		{"private-use rune: placeholder box", 5, 2, 16},
		{"wide rune: placeholder over two cells", 1, 2, 8},
	}
	for _, tt := range tests {
		if n := cellPixels(img, tt.col, tt.row) - countColour(img, tt.col, tt.row, defaultBackground); n < tt.minInk {
			t.Errorf("%s: %d inked pixels, want at least %d", tt.name, n, tt.minInk)
		}
	}
	// Neighbours' antialiasing may touch an edge pixel or two.
	if n := cellPixels(img, 3, 2) - countColour(img, 3, 2, defaultBackground); n > 3 {
		t.Errorf("control rune cell is not blank: %d inked pixels", n)
	}
}

func cellPixels(img image.Image, col, row int) int {
	return cellRect(col, row, 1).Intersect(img.Bounds()).Size().X * CellHeight
}

func TestPNGReverseBoldText(t *testing.T) {
	img := samplePNG(t)
	if n := countColour(img, 1, 3, defaultForeground); n < CellWidth*CellHeight/2 {
		t.Errorf("reverse cell has %d light background pixels", n)
	}
	if n := countDark(img, 1, 3); n < 5 {
		t.Errorf("reverse cell's '<' has %d dark pixels", n)
	}
}

func TestWritePNGRejectsEmptyScreen(t *testing.T) {
	if err := writePNG(io.Discard, newScreen(t, 5, 0)); err == nil {
		t.Error("WritePNG on a screen without rows: no error")
	}
}

// BenchmarkWritePNG paints and encodes a full 200×50 dashboard-like screen.
func BenchmarkWritePNG(b *testing.B) {
	s := newScreen(b, 200, 50)
	styles := []tcell.Style{tcell.StyleDefault, greenText, redBackground, reverseBold}
	line := "║ 5121 app    10.0.0.12:51234 shop   48s Sending data  2,104,331 UPDATE b SET qty = qty - 1 ▁▂▃▄▅▆▇█ "
	for y := range 50 {
		for x := 0; x < 200; x += len([]rune(line)) {
			put(s, x, y, line, styles[(x+y)%len(styles)])
		}
	}
	s.Show()
	b.ReportAllocs()
	for b.Loop() {
		if err := writePNG(io.Discard, s); err != nil {
			b.Fatal(err)
		}
	}
}
