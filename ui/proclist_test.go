package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestSortKeysChangeOrder(t *testing.T) {
	d := New(Options{})
	d.Update(incidentFrame())
	if got, want := shownIDs(d), []int64{4001, 5121, 5190, 5188}; !slices.Equal(got, want) {
		t.Fatalf("default (Time desc, idle hidden) = %v, want %v", got, want)
	}
	press(d, 'r')
	if got, want := shownIDs(d), []int64{5188, 5190, 5121, 4001}; !slices.Equal(got, want) {
		t.Errorf("reversed = %v, want %v", got, want)
	}
	press(d, '<') // Cmd, ascending now: all "Query", ties by id
	press(d, '<') // db
	if got, want := shownIDs(d), []int64{4001, 5121, 5188, 5190}; !slices.Equal(got, want) {
		t.Errorf("by db asc = %v, want %v", got, want)
	}
	press(d, '>')
	press(d, '>')
	press(d, '>') // State
	if d.list.sortCol != colState {
		t.Fatalf("sort column = %d", d.list.sortCol)
	}
	mustContain(t, screenOf(d, 120, 40), "by State asc", "State▲")
}

func TestSortWrapsAround(t *testing.T) {
	l := newProcList()
	l.sortCol = colID
	l.moveSort(-1)
	if l.sortCol != colMem {
		t.Errorf("< from Id should wrap to the last column, Mem, got %d", l.sortCol)
	}
}

func TestIdleToggle(t *testing.T) {
	d := New(Options{})
	d.Update(incidentFrame())
	press(d, 'i')
	if n := len(d.list.rows); n != 6 {
		t.Fatalf("with idle shown: %d rows, want 6", n)
	}
	mustContain(t, screenOf(d, 200, 50), "Sleep", "Daemon")
	press(d, 'i')
	if n := len(d.list.rows); n != 4 {
		t.Errorf("idle hidden: %d rows, want 4", n)
	}
}

func TestFilterThroughPrompt(t *testing.T) {
	d := New(Options{})
	d.Update(incidentFrame())
	press(d, '/')
	typeText(d, "user:web state:LOCK items")
	pressKey(d, tcell.KeyEnter)
	if got, want := shownIDs(d), []int64{5190, 5188}; !slices.Equal(got, want) {
		t.Fatalf("filtered = %v, want %v", got, want)
	}
	mustContain(t, screenOf(d, 200, 50), "2 shown", "filter: user:web state:LOCK items")
	pressKey(d, tcell.KeyEscape)
	if n := len(d.list.rows); n != 4 {
		t.Errorf("Esc should clear the filter: %d rows", n)
	}
}

func TestBadFilterKeepsListAndSaysWhy(t *testing.T) {
	d := New(Options{})
	d.Update(incidentFrame())
	press(d, '/')
	typeText(d, "colour:red")
	pressKey(d, tcell.KeyEnter)
	if n := len(d.list.rows); n != 4 {
		t.Errorf("rows = %d after a bad filter", n)
	}
	mustContain(t, screenOf(d, 120, 40), `unknown filter field "colour"`)
}

func TestParseFilter(t *testing.T) {
	cases := []struct {
		in      string
		wantIDs []int64
		bad     bool
	}{
		{"", []int64{1, 3000, 4001, 5121, 5188, 5190}, false},
		{"db:dw", []int64{4001}, false},
		{"host:10.0.0.12", []int64{3000, 5121}, false},
		{"cmd:sleep", []int64{3000}, false},
		{"id:5121", []int64{5121}, false},
		{"UPDATE", []int64{5121}, false},
		{"user:app text:update", []int64{5121}, false},
		{"user:nobody", nil, false},
		{"id:abc", nil, true},
		{"nope:x", nil, true},
	}
	procs := incidentProcs()
	for _, c := range cases {
		f, err := parseFilter(c.in)
		if (err != nil) != c.bad {
			t.Errorf("%q: err = %v", c.in, err)
			continue
		}
		if c.bad {
			continue
		}
		var got []int64
		for i := range procs {
			if f.match(&procs[i]) {
				got = append(got, procs[i].ID)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.wantIDs) {
			t.Errorf("%q matched %v, want %v", c.in, got, c.wantIDs)
		}
	}
}

// FuzzParseFilter checks the filter against the thread it describes: a row
// whose fields hold the very text typed after each field name (in whatever
// case) must match, since matching is case-insensitive substring and id is
// the thread's number. It also checks that a rejected filter keeps nothing,
// that the text shown back as the filter parses to the same terms, and that
// matching agrees with a plain ASCII-lowered substring search.
func FuzzParseFilter(f *testing.F) {
	f.Add("user:web state:LOCK items", "App", "UPDATE items SET x=1")
	f.Add("id:5121", "root", "")
	f.Add("  host:10.0.0.12   cmd:Sleep ", "Web", "select 1")
	f.Add("USER:ÉLODIE text:Ünïcode", "élodie", "ÜNÏCODE")
	f.Add("id:+0042 db:", "x", "y")
	f.Add("colour:red", "", "")
	f.Fuzz(func(t *testing.T, s, user, info string) {
		flt, err := parseFilter(s)
		if err != nil {
			if !flt.empty() || flt.raw != "" {
				t.Fatalf("%q: error %v with filter %+v", s, err, flt)
			}
			return
		}
		words := strings.Fields(s)
		if len(flt.terms) != len(words) || flt.raw != strings.TrimSpace(s) {
			t.Fatalf("%q: %d terms, raw %q", s, len(flt.terms), flt.raw)
		}
		again, err := parseFilter(flt.raw)
		if err != nil || !slices.Equal(again.terms, flt.terms) {
			t.Fatalf("re-parsing %q: %+v %v, first %+v", flt.raw, again.terms, err, flt.terms)
		}
		// The thread the filter was typed for: each field holds the typed
		// values, all id terms name its number.
		typed := map[string]string{}
		var id int64
		ids := map[int64]bool{}
		for _, w := range words {
			field, value, found := strings.Cut(w, ":")
			if !found {
				field, value = "text", w
			}
			field = strings.ToLower(field)
			if field == "id" {
				n, err := strconv.ParseInt(value, 10, 64)
				if err != nil {
					t.Fatalf("%q: accepted id %q", s, value)
				}
				id, ids[n] = n, true
				continue
			}
			typed[field] += value
		}
		p := snapshot.Process{ID: id, User: typed["user"], DB: typed["db"], Host: typed["host"],
			State: typed["state"], Command: typed["cmd"], Info: typed["text"]}
		if len(ids) <= 1 && !flt.match(&p) {
			t.Fatalf("filter %q does not match its own thread %+v", s, p)
		}
		for _, term := range flt.terms {
			if !filterFields[term.field] {
				t.Fatalf("%q: field %q", s, term.field)
			}
			for _, hay := range []string{user, info} {
				want := strings.Contains(asciiFolded(hay), term.value)
				if got := containsFold(hay, term.value); got != want {
					t.Fatalf("containsFold(%q, %q) = %v, want %v", hay, term.value, got, want)
				}
			}
		}
	})
}

// asciiFolded is the reference for containsFold, written the plain way.
func asciiFolded(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func TestSelectionFollowsThreadAcrossFrames(t *testing.T) {
	d := New(Options{})
	d.Update(frameAt(1000))
	pressKey(d, tcell.KeyDown) // 5121
	next := frameAt(1001)
	next.Snapshot.Processlist[0].TimeMS = 200_000 // 5121 moves to the top
	d.Update(next)
	if p := d.procs.selected(); p == nil || p.ID != 5121 {
		t.Errorf("selected = %+v, want thread 5121", p)
	}
}

func TestLongRunningMarkedWithoutColour(t *testing.T) {
	s := screenOf(func() *Dashboard { d := New(Options{}); d.Update(incidentFrame()); return d }(), 120, 40)
	mustContain(t, s, " ! 4001", " + 5121", "*  5188")
}

func TestFiveThousandRowsDraw(t *testing.T) {
	d := New(Options{})
	f := bigFrame(5000)
	d.Update(f)
	press(d, 'i') // show all 5,000
	s := screenOf(d, 200, 50)
	mustContain(t, s, "5,000 shown", "of 5,000")
	// Only the visible rows were turned into cells: the longest-running first.
	mustContain(t, s, "1m36s")
}

func BenchmarkDrawProcesslist5000(b *testing.B) { benchDraw(b, 5000) }

// BenchmarkDrawProcesslist50 is the baseline: with a virtual table the cost
// of a draw follows the screen, not the number of threads.
func BenchmarkDrawProcesslist50(b *testing.B) { benchDraw(b, 50) }

// BenchmarkDrawLongQueries: ORM statements of ~1 KB; a cell holds no more
// text than the table is wide, since tview measures every rune of it.
func BenchmarkDrawLongQueries(b *testing.B) {
	f := bigFrame(5000)
	cols := strings.Repeat("t.some_long_column_name, ", 40)
	for i := range f.Snapshot.Processlist {
		p := &f.Snapshot.Processlist[i]
		p.Info = "SELECT " + cols + p.Info
	}
	benchDrawFrame(b, f)
}

func benchDraw(b *testing.B, rows int) { benchDrawFrame(b, bigFrame(rows)) }

func benchDrawFrame(b *testing.B, f *snapshot.Frame) {
	d := New(Options{})
	d.Update(f)
	d.list.toggleIdle()
	screen := tcell.NewSimulationScreen("UTF-8")
	_ = screen.Init()
	screen.SetSize(200, 50)
	d.root.SetRect(0, 0, 200, 50)
	b.ReportAllocs()
	for b.Loop() {
		d.root.Draw(screen)
	}
}

func BenchmarkUpdate5000(b *testing.B) {
	d := New(Options{})
	f := bigFrame(5000)
	b.ReportAllocs()
	for b.Loop() {
		d.Update(f)
	}
}

// A frame's draw makes about 2,500 allocations at 200×50 (37,000 before
// asciiScreen and the tag fast path, 7,100 before procGrid replaced tview's
// Table); the garbage was a tenth of the dashboard's CPU at 5,000
// connections.
func TestDrawAllocations(t *testing.T) {
	d := New(Options{})
	d.Update(bigFrame(5000))
	d.list.toggleIdle()
	screen := tcell.NewSimulationScreen("UTF-8")
	_ = screen.Init()
	screen.SetSize(200, 50)
	d.root.SetRect(0, 0, 200, 50)
	if n := testing.AllocsPerRun(5, func() { d.root.Draw(screen) }); n > 4_000 {
		t.Errorf("%.0f allocations a draw, want at most 4,000", n)
	}
}
