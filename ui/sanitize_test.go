package ui

import (
	"strings"
	"testing"
)

func TestSafeLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "SELECT 1", "SELECT 1"},
		{"escape sequence", "SELECT '\x1b[2J\x1b]0;pwned\x07'", "SELECT '?[2J?]0;pwned?'"},
		{"line breaks become spaces", "SELECT a\n  FROM t\r\n\tWHERE 1", "SELECT a   FROM t   WHERE 1"},
		{"invalid utf-8 bytes", "SELECT '\xff\xfe'", `SELECT '\xFF\xFE'`},
		{"C1 control", "a\u009bb", "a?b"},
		{"bidi override", "WHERE user = 'admin\u202e'", "WHERE user = 'admin?'"},
		{"tview tags escaped", "SELECT '[red]x[-]'", "SELECT '[red[]x[-[]'"},
		{"non-ASCII kept", "SELECT 'Grüße ✓'", "SELECT 'Grüße ✓'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := safeLine(c.in, 0); got != c.want {
				t.Errorf("safeLine(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestSafeLineTruncates(t *testing.T) {
	got := safeLine(strings.Repeat("x", 1000), 10)
	if got != "xxxxxxxxxx…" {
		t.Errorf("got %q", got)
	}
}

func TestSafeTextKeepsLineBreaks(t *testing.T) {
	if got := safeText("SELECT a\nFROM t\x1b"); got != "SELECT a\nFROM t?" {
		t.Errorf("got %q", got)
	}
}

// TestHostileServerTextNeverReachesScreen draws a frame whose query text, user
// name and error carry escapes, tags and broken UTF-8, and checks the cells.
func TestHostileServerTextNeverReachesScreen(t *testing.T) {
	f := incidentFrame()
	p := &f.Snapshot.Processlist[3] // thread 4001, shown first
	p.User = "ev\x1b[31mil"
	p.Info = "SELECT '\x1b]52;c;ZWNobyBwd25lZA==\x07' /* [yellow]fake[-] */ \xc3\x28"
	f.Snapshot.Server.Unreachable = true
	f.Snapshot.Server.Error = "bad\x1b[Kerror"
	screen := Render(f, 200, 50, nil)
	cells, _, _ := screen.GetContents()
	for i, c := range cells {
		for _, r := range c.Runes {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("control rune %U at cell %d", r, i)
			}
		}
	}
	s := ScreenText(screen)
	mustContain(t, s, "ev?[31mil", "?]52;c;", "/* [yellow]fake[-] */", `\xC3(`, "bad?[Kerror")
}

func TestWideCharactersReadAsOnTerminal(t *testing.T) {
	f := incidentFrame()
	f.Snapshot.Processlist[3].Info = "SELECT '日本語' FROM t"
	mustContain(t, ScreenText(Render(f, 120, 30, nil)), "SELECT '日本語' FROM t")
}
