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

// trickyProcs are n threads whose every screenful holds what a cell can
// make hard: text past a column's cap, wide (CJK) and combining runes,
// emoji, '[' that tview reads as a tag, line breaks, long queries cut with
// '…' (and '…' inside a text, which tview's byte count lets go uncut),
// empty fields, unknown row counts, ids of many digits, and each run
// level (idle, > 10 s, > 60 s).
func trickyProcs(n int) []snapshot.Process {
	users := []string{"app", "a_very_long_user_name_cut", "用户名", "ユーザー名前長い名前です", "", "x[y]", "café",
		"user…name_longer"}
	hosts := []string{"10.0.0.1:5000", "hôte.exemple.fr:3306", "very-long-hostname.example.internal:33060", "主机:1"}
	dbs := []string{"shop", "", "データベース", "a_database_name_long"}
	cmds := []string{"Query", "Sleep", "Execute", "Query", "Binlog Dump"}
	states := []string{"Sending data", "", "Waiting for table metadata lock on the big table", "統計情報", "statistics"}
	long := "SELECT " + strings.Repeat("t.some_long_column_name, ", 20) + "x FROM t"
	infos := []string{"SELECT 1", long, "SELECT '日本語テキスト' FROM t WHERE x = 'ü'", "UPDATE t SET a[1] = 2",
		"SELECT 'cafe\u0301'", "", "SELECT\n\t*\nFROM t", strings.Repeat("ç", 300), "SELECT '👍🏽' -- emoji",
		strings.Repeat("長い問い合わせ", 40), "INSERT INTO t VALUES ('[red]not a tag[-]')"}
	procs := make([]snapshot.Process, n)
	for i := range procs {
		procs[i] = snapshot.Process{
			ID: int64(1000 + i), User: users[i%len(users)], Host: hosts[i%len(hosts)], DB: dbs[i%len(dbs)],
			Command: cmds[i%len(cmds)], TimeMS: int64(i*7919) % 200_000, State: states[i%len(states)],
			Info: infos[i%len(infos)], ExaminedRows: int64(i*i*31) - 1,
		}
		if i%9 == 4 {
			procs[i].ID = 9_876_543_210 + int64(i)
		}
	}
	return procs
}

// gridList is a procList of trickyProcs with every thread shown and some
// highlighted, as a finding would.
func gridList(n int) *procList {
	l := newProcList()
	l.hideIdle = false
	l.set(trickyProcs(n))
	l.highlight = map[int64]bool{}
	for i := 0; i < n; i += 3 {
		l.highlight[int64(1000+i)] = true
	}
	return l
}

func simScreen(t testing.TB, w, h int) tcell.SimulationScreen {
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	// Left-overs of an earlier frame, which both must clear.
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			s.SetContent(x, y, '#', nil, tcell.StyleDefault.Foreground(tcell.ColorGreen).Italic(true))
		}
	}
	return s
}

// drawBoth draws the reference and the new panel, each on its own screen of
// w×h, and fails at the first cell that differs in rune or style.
func drawBoth(t *testing.T, name string, ref *tviewProcPanel, grid *procPanel, w, h int) {
	t.Helper()
	sameDrawing(t, name, ref, grid, w, h)
	if a, b := ref.selected(), grid.selected(); a != b {
		t.Fatalf("%s: selected %v, tview selected %v", name, b, a)
	}
}

// sameDrawing draws ref (tview's Table) and got (the grid), each on its own
// screen of w×h with left-overs to clear, and fails at the first cell that
// differs in rune, combining runes, style or width.
func sameDrawing(t *testing.T, name string, ref, got tview.Primitive, w, h int) {
	t.Helper()
	want, have := simScreen(t, w, h), simScreen(t, w, h)
	ref.SetRect(0, 0, w, h)
	got.SetRect(0, 0, w, h)
	ref.Draw(withASCIICells(want))
	got.Draw(withASCIICells(have))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			wm, wc, ws, ww := want.GetContent(x, y)
			gm, gc, gs, gw := have.GetContent(x, y)
			if wm != gm || string(wc) != string(gc) || ws != gs || ww != gw {
				t.Fatalf("%s: cell %d,%d is %q%q %+v, tview drew %q%q %+v\ngrid:  %s\ntview: %s",
					name, x, y, gm, gc, gs, wm, wc, ws, screenRow(have, y, w), screenRow(want, y, w))
			}
		}
	}
}

func screenRow(s tcell.Screen, y, w int) string {
	var b strings.Builder
	for x := 0; x < w; x++ {
		m, c, _, _ := s.GetContent(x, y)
		b.WriteRune(m)
		b.WriteString(string(c))
	}
	return b.String()
}

// gridVariant is one way of showing the list: its sort and columns.
type gridVariant struct {
	name        string
	sortCol     int
	desc        bool
	hideThreads bool
	threads     threadCols
}

var gridVariants = []gridVariant{
	{"time desc", colTime, true, false, threadCols{}},
	{"user asc, threads n/a", colUser, false, false, threadCols{na: "remote server"}},
	{"cpu desc, threads hidden", colCPU, true, true, threadCols{}},
	{"query asc", colQuery, false, false, threadCols{}},
}

// TestProcGridMatchesTviewTable holds procGrid to tview's Table, cell for
// cell, over terminal widths of each column set (narrow 80, medium 120,
// wide 200) and narrower ones that cut columns, lists of 0, 1, 50 and
// 5,000 threads, the selection at the top, in the middle, at the bottom of
// the first screen, past it and on the last row, each sort (arrows in the
// header, right-aligned figures) and the thread columns shown, missing and
// hidden.
func TestProcGridMatchesTviewTable(t *testing.T) {
	t.Parallel() // CPU only, independent of the others: the fast tier's longest
	for _, n := range []int{0, 1, 50, 5000} {
		list := gridList(n)
		for _, v := range gridVariants {
			list.sortCol, list.desc, list.hideThreads, list.threads = v.sortCol, v.desc, v.hideThreads, v.threads
			list.rebuild()
			for _, w := range sampled([]int{80, 120, 200, 42, 22}, 80, 22) {
				for _, h := range []int{25, 3} {
					for _, sel := range []int{0, 10, h - 4, 40, n - 1} {
						ref, grid := newTviewProcPanel(list), newProcPanel(list)
						if p := list.row(sel); p != nil {
							ref.selectedID, grid.selectedID = p.ID, p.ID
						}
						ref.reselect()
						grid.reselect()
						drawBoth(t, fmt.Sprintf("%d rows, %s, %d×%d, row %d", n, v.name, w, h, sel), ref, grid, w, h)
					}
				}
			}
		}
	}
}

// gridKeys are the keys tview's Table moved in this panel, and some it
// ignored.
// sampled is all the values a grid-equivalence test draws in the full
// command, and few in the fast tier (-short): there every combination of
// sizes and rows made these four tests the tier's longest (21 s of CPU).
func sampled[T any](all []T, few ...T) []T {
	if testing.Short() {
		return few
	}
	return all
}

var gridKeys = []*tcell.EventKey{
	tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyRune, 'j', tcell.ModNone),
	tcell.NewEventKey(tcell.KeyPgDn, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyCtrlF, 0, tcell.ModCtrl),
	tcell.NewEventKey(tcell.KeyPgDn, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyUp, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyRune, 'k', tcell.ModNone),
	tcell.NewEventKey(tcell.KeyEnd, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyPgUp, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyCtrlB, 0, tcell.ModCtrl),
	tcell.NewEventKey(tcell.KeyRune, 'g', tcell.ModNone),
	tcell.NewEventKey(tcell.KeyUp, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyRune, 'G', tcell.ModNone),
	tcell.NewEventKey(tcell.KeyHome, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyRune, 'l', tcell.ModNone),
	tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone),
	tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone),
	tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone),
}

// TestProcGridKeysMatchTviewTable presses the same keys on both, with
// re-sorts between (the selected thread followed to its new row), and
// compares every screen and the selected thread.
func TestProcGridKeysMatchTviewTable(t *testing.T) {
	t.Parallel() // CPU only, independent of the others: the fast tier's longest
	for _, n := range []int{1, 2, 50, 5000} {
		for _, w := range sampled([]int{80, 200, 42, 22}, 80, 22) {
			list := gridList(n)
			ref, grid := newTviewProcPanel(list), newProcPanel(list)
			ref.reselect()
			grid.reselect()
			step := func(what string) {
				t.Helper()
				drawBoth(t, fmt.Sprintf("%d rows, width %d, after %s", n, w, what), ref, grid, w, 20)
			}
			step("start")
			for round, resort := range []func(){list.reverse, func() { list.moveSort(1) }, list.toggleIdle} {
				for _, ev := range gridKeys {
					ref.table.InputHandler()(ev, func(tview.Primitive) {})
					grid.InputHandler()(ev, func(tview.Primitive) {})
					step(fmt.Sprintf("round %d key %s", round, ev.Name()))
				}
				resort()
				ref.reselect()
				grid.reselect()
				step(fmt.Sprintf("round %d re-sort", round))
			}
		}
	}
}

// TestProcGridKeysOnEmptyList: tview's Table looped for ever on Down, Up,
// PgDn and PgUp over a header without rows (a filter that matched nothing
// froze the dashboard); the grid ignores them.
func TestProcGridKeysOnEmptyList(t *testing.T) {
	d := New(Options{})
	f := frameAt(1000)
	f.Snapshot.Processlist = nil
	d.Update(f)
	screenOf(d, 120, 40)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, k := range []tcell.Key{tcell.KeyDown, tcell.KeyUp, tcell.KeyPgDn, tcell.KeyPgUp, tcell.KeyEnd, tcell.KeyHome} {
			pressKey(d, k)
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a move key on an empty processlist did not return")
	}
	if p := d.procs.selected(); p != nil {
		t.Errorf("selected %+v in an empty list", p)
	}
}

// TestProcGridSelectionStaysOnScreenWhenListGrows: tview's Table, once the
// list had fitted the panel, kept showing the list's end as it grew, the
// selected thread off screen until the next refresh; the grid keeps its
// place.
func TestProcGridSelectionStaysOnScreenWhenListGrows(t *testing.T) {
	list := gridList(5)
	list.sortCol, list.desc = colID, false
	list.rebuild()
	ref, grid := newTviewProcPanel(list), newProcPanel(list)
	for _, p := range []interface {
		tview.Primitive
		reselect()
	}{ref, grid} {
		p.reselect()
		p.SetRect(0, 0, 120, 20)
		p.Draw(simScreen(t, 120, 20))
	}
	list.set(trickyProcs(500)) // thread 1000 is still the first
	ref.reselect()
	grid.reselect()
	ref.Draw(simScreen(t, 120, 20))
	grid.Draw(simScreen(t, 120, 20))
	if off, _ := ref.table.GetOffset(); off == 0 {
		t.Errorf("tview's Table kept its place: the grid need not differ")
	}
	if grid.grid.offset != 0 || grid.selected() != list.row(0) {
		t.Errorf("offset %d, selected %v: want the first row selected and shown", grid.grid.offset, grid.selected())
	}
}

func BenchmarkDrawProcesslistTview50(b *testing.B)   { benchPanel(b, 50, true) }
func BenchmarkDrawProcesslistTview5000(b *testing.B) { benchPanel(b, 5000, true) }
func BenchmarkDrawProcesslistGrid50(b *testing.B)    { benchPanel(b, 50, false) }
func BenchmarkDrawProcesslistGrid5000(b *testing.B)  { benchPanel(b, 5000, false) }

// benchPanel draws the processlist panel alone at 200×50 over bigFrame's
// threads, as the reference tview table or as the grid.
func benchPanel(b *testing.B, rows int, tviewTable bool) {
	list := newProcList()
	list.hideIdle = false
	list.set(bigFrame(rows).Snapshot.Processlist)
	var panel tview.Primitive = newProcPanel(list)
	if tviewTable {
		panel = newTviewProcPanel(list)
	}
	screen := withASCIICells(simScreen(b, 200, 50))
	panel.SetRect(0, 0, 200, 50)
	b.ReportAllocs()
	for b.Loop() {
		panel.Draw(screen)
	}
}
