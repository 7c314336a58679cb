package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// trickyFindings are n findings whose titles, IDs and evidence hold what a
// cell can make hard: CJK and combining runes, '[' that tview reads as a
// tag, text past the panel's width, a caused-by suffix (tagged), no start
// time; with root causes when linked.
func trickyFindings(n int, linked bool) []snapshot.Finding {
	titles := []string{"597 threads wait for table-level locks", "UPDATE 日本語テーブル scans the whole table",
		"cafe\u0301 [red]not a tag[-] in a title", strings.Repeat("a long title that goes on ", 12), "",
		"emoji 👍🏽 and ü"}
	fs := make([]snapshot.Finding, n)
	for i := range fs {
		fs[i] = snapshot.Finding{ID: fmt.Sprintf("rule_%c_%s", 'a'+i, []string{"x", "長い", "[y]"}[i%3]),
			Severity: snapshot.Severity(i % 3), Title: titles[i%len(titles)], Since: t0.Add(-time.Duration(i*37) * time.Second),
			Evidence: []string{"evidence 統計 [b] " + strings.Repeat("word ", i*5), "second line"},
			Advice:   "advice for " + titles[i%len(titles)], Threads: []int64{int64(5121 + i)}}
		if i%4 == 3 {
			fs[i].Since = time.Time{}
		}
		if linked && i > 0 && i%2 == 1 {
			fs[i].CausedBy, fs[i].CauseThreads = []string{fs[0].ID}, []int64{5121}
		}
	}
	return fs
}

// findingsFrame is a frame of n trickyFindings and na groups of rules that
// cannot run.
func findingsFrame(n, na int, linked bool) *snapshot.Frame {
	f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: t0}, Findings: trickyFindings(n, linked),
		NotApplicable: map[string]string{}}
	for i := 0; i < na; i++ {
		f.NotApplicable[fmt.Sprintf("rule_%d", i)] = fmt.Sprintf("reason %d: needs the 権限 [PROCESS] privilege", i%(na/2+1))
	}
	return f
}

// drawFindingsBoth draws the reference and the new panel on screens of
// w×h and fails at the first cell that differs, or at a differing selection.
func drawFindingsBoth(t *testing.T, name string, ref *tviewFindingsPanel, p *findingsPanel, w, h int) {
	t.Helper()
	sameDrawing(t, name, ref, p, w, h)
	if a, b := ref.selected(), p.selected(); a != nil && b != nil && a.ID != b.ID || (a == nil) != (b == nil) {
		t.Fatalf("%s: selected %v, tview selected %v", name, b, a)
	}
}

// findingsPair is the reference and the new panel over the same frame.
func findingsPair(f *snapshot.Frame, focus bool) (*tviewFindingsPanel, *findingsPanel) {
	ref, p := newTviewFindingsPanel(), newFindingsPanel()
	ref.set(f)
	p.set(f)
	if focus {
		ref.Focus(func(tview.Primitive) {})
		p.Focus(func(tview.Primitive) {})
	}
	return ref, p
}

// TestFindingsGridMatchesTviewTable holds the findings grid to tview's
// Table, cell for cell: 0, 1, 3 and 12 findings, with and without groups
// of rules that cannot run and a root-cause line, with focus (details
// below) and without, at widths 80, 120, 200 and 30 and heights that cut
// the list, the selection on each row.
func TestFindingsGridMatchesTviewTable(t *testing.T) {
	t.Parallel() // CPU only, independent of the others: the fast tier's longest
	for _, n := range []int{0, 1, 3, 12} {
		for _, na := range []int{0, 5} {
			for _, linked := range []bool{false, true} {
				f := findingsFrame(n, na, linked)
				for _, focus := range []bool{false, true} {
					for _, w := range sampled([]int{80, 120, 200, 30}, 80, 30) {
						for _, h := range sampled([]int{30, 9, 5, 3}, 30, 5) {
							for _, sel := range sampled(rows(n), 0, max(n, 1)-1) {
								ref, p := findingsPair(f, focus)
								ref.table.Select(sel, 0)
								p.grid.selectRow(sel)
								name := fmt.Sprintf("%d findings, %d n/a, linked %v, focus %v, %d×%d, row %d",
									n, na, linked, focus, w, h, sel)
								drawFindingsBoth(t, name, ref, p, w, h)
							}
						}
					}
				}
			}
		}
	}
}

// rows is 0 to n-1, one row at least.
func rows(n int) []int {
	out := make([]int, max(n, 1))
	for i := range out {
		out[i] = i
	}
	return out
}

// findingsKeys are the keys tview's Table took in this panel, and some it
// ignored.
var findingsKeys = append([]*tcell.EventKey{
	tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyPgUp, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyRune, 'G', tcell.ModNone),
	tcell.NewEventKey(tcell.KeyCtrlB, 0, tcell.ModCtrl),
	tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone),
}, gridKeys...)

// TestFindingsGridKeysMatchTviewTable presses the same keys on both, with
// new frames between (the selected finding kept), and compares every
// screen, the selection and each call of the selection-changed callback
// (the dashboard's highlight of the finding's threads).
func TestFindingsGridKeysMatchTviewTable(t *testing.T) {
	t.Parallel() // CPU only, independent of the others: the fast tier's longest
	for _, n := range []int{1, 3, 12} {
		for _, w := range sampled([]int{80, 200, 30}, 80, 30) {
			for _, h := range []int{20, 7} {
				f := findingsFrame(n, 5, n > 1)
				ref, p := findingsPair(f, true)
				var refCalls, calls []string
				ref.table.SetSelectionChangedFunc(func(int, int) { refCalls = append(refCalls, ref.selectedID()) })
				p.selectionChanged = func() { calls = append(calls, p.selectedID()) }
				for round := 0; round < 2; round++ {
					for _, ev := range findingsKeys {
						refCalls, calls = nil, nil
						ref.InputHandler()(ev, func(tview.Primitive) {})
						p.InputHandler()(ev, func(tview.Primitive) {})
						name := fmt.Sprintf("%d findings, %d×%d, round %d, key %s", n, w, h, round, ev.Name())
						drawFindingsBoth(t, name, ref, p, w, h)
						if fmt.Sprint(refCalls) != fmt.Sprint(calls) {
							t.Fatalf("%s: selection-changed calls %v, tview's %v", name, calls, refCalls)
						}
					}
					ref.set(f)
					p.set(f)
					drawFindingsBoth(t, fmt.Sprintf("%d findings, %d×%d, round %d, new frame", n, w, h, round), ref, p, w, h)
				}
			}
		}
	}
}

// TestFindingsGridKeysWithoutFindings: over "no findings" and rules that
// cannot run, tview's Table took Home and End (the same screen after) but
// looped for ever on Up, Down, PgUp and PgDn; the grid does nothing there.
func TestFindingsGridKeysWithoutFindings(t *testing.T) {
	for _, na := range []int{0, 5} {
		ref, p := findingsPair(findingsFrame(0, na, false), true)
		drawFindingsBoth(t, "start", ref, p, 80, 5)
		for _, k := range []tcell.Key{tcell.KeyHome, tcell.KeyEnd} {
			ev := tcell.NewEventKey(k, 0, tcell.ModNone)
			ref.InputHandler()(ev, func(tview.Primitive) {})
			p.InputHandler()(ev, func(tview.Primitive) {})
			drawFindingsBoth(t, ev.Name(), ref, p, 80, 5)
		}
		for _, k := range []tcell.Key{tcell.KeyDown, tcell.KeyUp, tcell.KeyPgDn, tcell.KeyPgUp} {
			p.InputHandler()(tcell.NewEventKey(k, 0, tcell.ModNone), func(tview.Primitive) {})
			drawFindingsBoth(t, "after "+tcell.KeyNames[k], ref, p, 80, 5)
		}
	}
}

func BenchmarkDrawFindingsTviewNA(b *testing.B) { benchFindings(b, naBenchFrame(), true) }
func BenchmarkDrawFindingsGridNA(b *testing.B)  { benchFindings(b, naBenchFrame(), false) }
func BenchmarkDrawFindingsTview8(b *testing.B)  { benchFindings(b, eightBenchFrame(), true) }
func BenchmarkDrawFindingsGrid8(b *testing.B)   { benchFindings(b, eightBenchFrame(), false) }

// naBenchFrame is a server without findings and five reasons rules cannot
// run, in plain words as the analyzers write them.
func naBenchFrame() *snapshot.Frame {
	f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: t0}, NotApplicable: map[string]string{}}
	for i := 0; i < 9; i++ {
		f.NotApplicable[fmt.Sprintf("rule_%d", i)] = fmt.Sprintf("collector %d unavailable: needs the PROCESS privilege", i%5)
	}
	return f
}

// eightBenchFrame is the linked incident cut to eight findings: one
// caused-by title (tagged), the rest plain.
func eightBenchFrame() *snapshot.Frame {
	f := linkedFrame()
	f.Findings = f.Findings[:8]
	return f
}

// benchFindings draws the findings panel alone at 200×10 over f, as the
// reference tview table or as the grid.
func benchFindings(b *testing.B, f *snapshot.Frame, tviewTable bool) {
	var panel tview.Primitive
	if tviewTable {
		ref := newTviewFindingsPanel()
		ref.set(f)
		panel = ref
	} else {
		p := newFindingsPanel()
		p.set(f)
		panel = p
	}
	screen := withASCIICells(simScreen(b, 200, 10))
	panel.SetRect(0, 0, 200, 10)
	b.ReportAllocs()
	for b.Loop() {
		panel.Draw(screen)
	}
}
