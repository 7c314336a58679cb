package ui

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"
)

// frameScreen collects a frame's cells and hands tcell, at Show, only those
// that differ from the frame shown before. tview clears the whole screen
// before every draw and panels fill their boxes before printing into them;
// tcell marks a cell dirty whenever its content changes between two writes,
// so every cell that is not blank was sent to the terminal again each
// second: 9 KB a frame at 200×50 on an unchanged screen, and the terminal
// output was the dashboard's largest single cost after the draw itself.
// Reads (GetContent, Get) see the frame being drawn, as tview expects.
type frameScreen struct {
	tcell.Screen
	w, h  int
	cur   []frameCell // the frame being drawn
	shown []frameCell // what tcell holds, from the last Show
	// synced is false until a whole frame was handed over at this size.
	synced  bool
	initErr error
}

// frameCell is one cell as tcell stores it: a grapheme cluster, its style
// and its width in columns.
type frameCell struct {
	str   string
	style tcell.Style
	width int
}

var blankCell = frameCell{str: " ", width: 1}

// newFrameScreen wraps s; Init, events and the rest pass through.
func newFrameScreen(s tcell.Screen) *frameScreen { return &frameScreen{Screen: s} }

// fit sizes the buffers to the screen; a new size sends the next frame whole.
func (f *frameScreen) fit() {
	w, h := f.Screen.Size()
	if w == f.w && h == f.h && f.cur != nil {
		return
	}
	f.w, f.h = w, h
	f.cur = make([]frameCell, w*h)
	f.shown = make([]frameCell, w*h)
	f.synced = false
	for i := range f.cur {
		f.cur[i] = blankCell
	}
}

// sized makes the buffers on a first write; a new size is noticed where a
// frame begins (Clear, Fill) and at Show, not on every cell: tcell's Size
// takes its lock, and asking it per cell was a fifth of the draw.
func (f *frameScreen) sized() {
	if f.cur == nil {
		f.fit()
	}
}

func (f *frameScreen) Clear() { f.Fill(' ', tcell.StyleDefault) }

func (f *frameScreen) Fill(r rune, style tcell.Style) {
	f.fit()
	c := frameCell{str: string(r), style: style, width: 1}
	for i := range f.cur {
		f.cur[i] = c
	}
}

func (f *frameScreen) SetContent(x, y int, mainc rune, combc []rune, style tcell.Style) {
	f.Put(x, y, cellText(mainc, combc), style)
}

// SetCell is tcell's deprecated form of SetContent.
func (f *frameScreen) SetCell(x, y int, style tcell.Style, ch ...rune) {
	if len(ch) > 0 {
		f.SetContent(x, y, ch[0], ch[1:], style)
	}
}

// Put stores str's first grapheme cluster at x, y and returns the rest and
// the cluster's width, as tcell's Put does.
func (f *frameScreen) Put(x, y int, str string, style tcell.Style) (string, int) {
	f.sized()
	if x < 0 || y < 0 || x >= f.w || y >= f.h || str == "" {
		return str, 0
	}
	var cluster string
	width := 1
	if str[0] < utf8.RuneSelf && (len(str) == 1 || str[1] < utf8.RuneSelf && str[0] != '\r') {
		cluster, str = str[:1], str[1:]
	} else {
		cluster, str, width, _ = uniseg.FirstGraphemeClusterInString(str, -1)
	}
	f.cur[y*f.w+x] = frameCell{str: cluster, style: style, width: width}
	return str, width
}

func (f *frameScreen) Get(x, y int) (string, tcell.Style, int) {
	f.sized()
	if x < 0 || y < 0 || x >= f.w || y >= f.h {
		return "", tcell.StyleDefault, 0
	}
	c := f.cur[y*f.w+x]
	return c.str, c.style, c.width
}

func (f *frameScreen) GetContent(x, y int) (rune, []rune, tcell.Style, int) {
	str, style, width := f.Get(x, y)
	switch {
	case str == "":
		return ' ', nil, style, width
	case len(str) == 1: // tview reads back every cell it prints
		return rune(str[0]), nil, style, width
	}
	runes := []rune(str)
	return runes[0], runes[1:], style, width
}

// Show hands tcell the cells that changed since the last frame, then lets
// it write what is dirty.
func (f *frameScreen) Show() {
	f.flush()
	f.Screen.Show()
}

// Sync is Show with the whole terminal rewritten, as tcell's.
func (f *frameScreen) Sync() {
	f.flush()
	f.Screen.Sync()
}

func (f *frameScreen) flush() {
	if w, h := f.Screen.Size(); w != f.w || h != f.h || f.cur == nil {
		f.fit() // resized since the draw: the resize's own redraw follows
		return
	}
	force := false // the cell after a wide one that changed
	for i, c := range f.cur {
		if f.synced && !force && c == f.shown[i] {
			continue
		}
		force = c.width > 1 || f.shown[i].width > 1
		f.Screen.Put(i%f.w, i/f.w, c.str, c.style)
		f.shown[i] = c
	}
	f.synced = true
}

// Init is tcell's, its error kept for NewApplication: tview's SetScreen
// initialises the screen and drops the error.
func (f *frameScreen) Init() error {
	f.initErr = f.Screen.Init()
	return f.initErr
}

// NewApplication is a tview application drawing on the terminal through a
// frameScreen, set up as tview's Run would set up a screen of its own.
func NewApplication() (*tview.Application, error) {
	s, err := tcell.NewScreen()
	if err != nil {
		return nil, err
	}
	f := newFrameScreen(s)
	app := tview.NewApplication().SetScreen(f)
	if f.initErr != nil {
		return nil, f.initErr
	}
	s.DisableMouse()
	s.DisablePaste()
	return app, nil
}
