package picture

import (
	"bytes"
	"image"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestGlyphCacheKeepsItsOwnMasks(t *testing.T) {
	cache, _, err := newGlyphCaches()
	if err != nil {
		t.Fatal(err)
	}
	first := cache.get('a')
	want := bytes.Clone(first.mask.Pix)
	cache.get('W') // rasterising another rune reuses the face's buffer
	fresh, _, _ := newGlyphCaches()
	if again := cache.get('a'); !bytes.Equal(again.mask.Pix, want) || !bytes.Equal(fresh.get('a').mask.Pix, want) {
		t.Error("cached mask of 'a' changed after rasterising 'W'")
	}
	if g := cache.get('\ue000'); g.ok {
		t.Errorf("private-use rune reported as in Go Mono: %+v", g)
	}
}

// TestVerticalBoxLinesJoin checks the cell height against the font: a │
// drawn in consecutive rows must be one unbroken line.
func TestVerticalBoxLinesJoin(t *testing.T) {
	s := newScreen(t, 1, 4)
	for y := range 4 {
		s.SetContent(0, y, '│', nil, tcell.StyleDefault)
	}
	s.Show()
	img, err := Image(s)
	if err != nil {
		t.Fatal(err)
	}
	x := inkiestColumn(img, 1)
	for y := range 4 * CellHeight {
		if ink := inkAt(img, x, y); ink < 0.85 {
			t.Fatalf("│ line at x=%d is broken at y=%d (ink %.2f)", x, y, ink)
		}
	}
}

func TestHorizontalBoxLinesJoin(t *testing.T) {
	s := newScreen(t, 4, 1)
	put(s, 0, 0, "────", tcell.StyleDefault)
	s.Show()
	img, err := Image(s)
	if err != nil {
		t.Fatal(err)
	}
	y := 0
	for row := range CellHeight {
		if inkAt(img, CellWidth/2, row) > inkAt(img, CellWidth/2, y) {
			y = row
		}
	}
	for x := range 4 * CellWidth {
		if ink := inkAt(img, x, y); ink < 0.85 {
			t.Fatalf("─ line at y=%d is broken at x=%d (ink %.2f)", y, x, ink)
		}
	}
}

// inkAt is how far pixel (x,y) is from the default background towards the
// default foreground, 0 to 1, judged on the red channel.
func inkAt(img image.Image, x, y int) float64 {
	c := rgbaAt(img, x, y)
	return float64(int(c.R)-int(defaultBackground.R)) / float64(int(defaultForeground.R)-int(defaultBackground.R))
}

// inkiestColumn is the pixel column of the first cell with the most ink in row.
func inkiestColumn(img image.Image, row int) int {
	best, bestInk := 0, -1.0
	for x := range CellWidth {
		ink := 0.0
		for y := row * CellHeight; y < (row+1)*CellHeight; y++ {
			ink += inkAt(img, x, y)
		}
		if ink > bestInk {
			best, bestInk = x, ink
		}
	}
	return best
}
