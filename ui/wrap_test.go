package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"
)

func TestWrapWords(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  []string
	}{
		{"a bb ccc dddd", 6, []string{"a bb", "ccc", "dddd"}},
		{"", 5, []string{""}},
		{"x /a/very/long/path/name y", 8, []string{"x", "/a/very/", "long/pat", "h/name y"}},
		{"↑ ↓ PgUp", 5, []string{"↑ ↓", "PgUp"}},
	}
	for _, tt := range tests {
		if got := wrapWords(tt.s, tt.width); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
	}
}

// At 80×24 the help cuts no line and scrolls to its end: every word of every
// binding's help is on some page, and the last page shows the closing line.
func TestHelpFits80x24AndScrolls(t *testing.T) {
	d := New(Options{Actions: &fakeActions{}, Player: &fakePlayer{}, Recorder: &fakeRecorder{}})
	d.Update(incidentFrame())
	screenOf(d, 80, 24) // d.screen is now 80 wide
	press(d, '?')
	var pages strings.Builder
	for range 12 {
		s := screenOf(d, 80, 24)
		for _, line := range strings.Split(s, "\n") {
			if uniseg.StringWidth(line) > 80 {
				t.Fatalf("line wider than the screen: %q", line)
			}
			pages.WriteString(line + "\n")
		}
		pressKey(d, tcell.KeyPgDn)
	}
	all := pages.String()
	mustContain(t, all, "Keys", "closes this help", "scroll")
	for _, b := range d.bindings {
		for _, w := range strings.Fields(b.help) {
			if !strings.Contains(all, w) {
				t.Errorf("help word %q of %v not on any page", w, b.keys)
			}
		}
	}
	for _, line := range strings.Split(d.helpText(74), "\n") {
		if tview.TaggedStringWidth(line) > 74 {
			t.Errorf("help line wider than 74: %q", line)
		}
	}
}

// A long query and a long evidence line open wrapped at 80×24, and End
// scrolls to their last words.
func TestLongValuesWrapAndScrollAt80x24(t *testing.T) {
	f := incidentFrame()
	long := "SELECT " + strings.Repeat("some_column_name, ", 150) + "last_column_END FROM t"
	f.Snapshot.Processlist[0].Info = long
	f.Snapshot.Processlist[0].TimeMS = 999_000 // first row
	f.Findings[0].Evidence = append(f.Findings[0].Evidence, strings.Repeat("evidence words ", 200)+"EVIDENCE_END")
	d := New(Options{})
	d.Update(f)
	pressKey(d, tcell.KeyEnter)
	s := screenOf(d, 80, 24)
	mustContain(t, s, "SELECT some_column_name")
	mustNotContain(t, s, "last_column_END")
	pressKey(d, tcell.KeyEnd)
	mustContain(t, screenOf(d, 80, 24), "last_column_END")
	pressKey(d, tcell.KeyEscape)

	pressKey(d, tcell.KeyTab)
	for i := 0; i < 3 && d.findings.selected().ID != f.Findings[0].ID; i++ {
		pressKey(d, tcell.KeyDown)
	}
	pressKey(d, tcell.KeyEnter)
	pressKey(d, tcell.KeyEnd)
	mustContain(t, screenOf(d, 80, 24), "EVIDENCE_END")
}
