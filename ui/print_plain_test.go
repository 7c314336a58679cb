package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// printLine puts the same cells as tview.Print, for every alignment, for
// lines shorter, as long as and longer than the room, over a coloured
// background it must keep, and falls back for what it does not handle.
func TestPrintLineMatchesTview(t *testing.T) {
	texts := []string{"", "a", "QPS 1,482  thr 212/38 run", "? help", "x y  z", "12345678901234567890123",
		"[red]tagged[-]", "a[b", "wide 漢字", "tab\there", "mytop-go: waiting for the first sample …"}
	newScreen := func() tcell.SimulationScreen {
		s := tcell.NewSimulationScreen("UTF-8")
		if err := s.Init(); err != nil {
			t.Fatal(err)
		}
		s.SetSize(30, 3)
		for x := 0; x < 30; x++ {
			s.SetContent(x, 1, '.', nil, tcell.StyleDefault.Background(tcell.ColorNavy))
		}
		return s
	}
	for _, text := range texts {
		for _, align := range []int{tview.AlignLeft, tview.AlignCenter, tview.AlignRight} {
			for _, room := range []int{0, 1, 6, 10, 23, 40} {
				for _, x := range []int{0, 3, 25} {
					want, got := newScreen(), newScreen()
					tview.Print(want, text, x, 1, room, align, tcell.ColorSilver)
					printLine(got, text, x, 1, room, align, tcell.ColorSilver)
					for cx := 0; cx < 30; cx++ {
						wm, wc, ws, _ := want.GetContent(cx, 1)
						gm, gc, gs, _ := got.GetContent(cx, 1)
						if wm != gm || len(wc) != len(gc) || ws != gs {
							t.Fatalf("%q align %d room %d at %d: cell %d is %q %v, tview has %q %v",
								text, align, room, x, cx, gm, gs, wm, ws)
						}
					}
				}
			}
		}
	}
}
