package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// modal is whatever sits over the dashboard and takes the keys: help, a
// query, an EXPLAIN, a y/n confirmation, the filter prompt.
type modal struct {
	view tview.Primitive
	// place positions the view within the screen rectangle.
	place func(x, y, w, h int) (int, int, int, int)
	// handle gets every key; it returns true when the modal is done.
	handle func(ev *tcell.EventKey) bool
	// copy, when set, is what y copies from the modal.
	copy func() clip
}

// centered places a box of at most maxW×maxH (0: nearly full) in the middle.
func centered(maxW, maxH int) func(x, y, w, h int) (int, int, int, int) {
	return func(x, y, w, h int) (int, int, int, int) {
		mw, mh := w-4, h-2
		if maxW > 0 {
			mw = min(mw, maxW)
		}
		if maxH > 0 {
			mh = min(mh, maxH)
		}
		return x + (w-mw)/2, y + (h-mh)/2, mw, mh
	}
}

// newTextView is a bordered, wrapped, scrollable view of tview-tagged text.
func newTextView(title, text string) *tview.TextView {
	tv := plainTextView().SetDynamicColors(true).SetWrap(true).SetWordWrap(true).SetText(text)
	tv.SetBorder(true).SetTitle(title)
	return tv
}

// textModal shows text until Esc, q or Enter; y copies it (without tags);
// other keys scroll it.
func textModal(tv *tview.TextView, extraClose ...rune) *modal {
	return &modal{
		view:  tv,
		place: centered(0, 0),
		copy: func() clip {
			return clip{strings.TrimSpace(tv.GetTitle()), tv.GetText(true)}
		},
		handle: func(ev *tcell.EventKey) bool {
			if isCloseKey(ev, extraClose) {
				return true
			}
			tv.InputHandler()(ev, func(tview.Primitive) {})
			return false
		},
	}
}

func isCloseKey(ev *tcell.EventKey, extra []rune) bool {
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyEnter:
		return true
	case tcell.KeyRune:
		if ev.Rune() == 'q' {
			return true
		}
		for _, r := range extra {
			if ev.Rune() == r {
				return true
			}
		}
	}
	return false
}

// confirmModal asks a yes/no question; only 'y' runs yes.
func confirmModal(title, text string, yes func()) *modal {
	tv := newTextView(title, text+"\n\n[::b]y[::-] yes    [::b]n[::-] / Esc no")
	tv.SetBorderColor(tcell.ColorRed)
	return &modal{
		view:  tv,
		place: centered(76, 12),
		handle: func(ev *tcell.EventKey) bool {
			if ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y') {
				yes()
				return true
			}
			return ev.Key() == tcell.KeyEscape || (ev.Key() == tcell.KeyRune && (ev.Rune() == 'n' || ev.Rune() == 'N'))
		},
	}
}

// promptModal is a one-line input at the bottom of the screen.
func promptModal(label, initial string, done func(text string)) *modal {
	in := tview.NewInputField().SetLabel(label).SetText(initial)
	in.Focus(func(tview.Primitive) {})
	return &modal{
		view: in,
		place: func(x, y, w, h int) (int, int, int, int) {
			return x, y + h - 1, w, 1
		},
		handle: func(ev *tcell.EventKey) bool {
			switch ev.Key() {
			case tcell.KeyEscape:
				return true
			case tcell.KeyEnter:
				done(in.GetText())
				return true
			}
			in.InputHandler()(ev, func(tview.Primitive) {})
			return false
		},
	}
}
