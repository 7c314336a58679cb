package parse

import (
	"os"
	"strings"
	"testing"
)

// flatten joins the lines of text, as the copy that lost its line breaks did.
func flatten(text string) string { return strings.ReplaceAll(text, "\n", "") }

// The flattened copy of a \G processlist restores to the same records: the
// vertical fixture, and a pt-stalk sample with TS markers, an empty State and
// names as wide as the padding.
func TestRestoreVerticalLines(t *testing.T) {
	raw, err := os.ReadFile("testdata/processlist-vertical.txt")
	if err != nil {
		t.Fatal(err)
	}
	stalk := "TS 1520256297.002113337 2018-03-05 13:24:57\n" +
		"*************************** 1. row ***************************\n" +
		"           Id: 689004\n         User: app\n         Host: h:48542\n           db: shop\n      Command: Sleep\n" +
		"         Time: 9\n        State:\n         Info: NULL\n    Rows_sent: 0\nRows_examined: 0\n    Rows_read: 0\n" +
		"TS 1520256298.002113337 2018-03-05 13:24:58\n" +
		"*************************** 1. row ***************************\n" +
		"           Id: 689005\n         User: app\n         Host: h:1\n           db: shop\n      Command: Query\n" +
		"         Time: 1\n        State: Sending data\n         Info: SELECT a, b FROM t WHERE c = 'Id: 3'\n" +
		"    Rows_sent: 0\nRows_examined: 10\n    Rows_read: 10\n"
	for name, text := range map[string]string{"fixture": string(raw), "pt-stalk": stalk} {
		if strings.Contains(text, "\n\n") && name == "fixture" {
			text = strings.ReplaceAll(text, "\n\n", "\n") // blank lines do not survive flattening
		}
		restored, ok := RestoreVerticalLines(flatten(text))
		if !ok {
			t.Fatalf("%s: not restored", name)
		}
		want, err1 := parseProcesslistVertical(withoutTS(text))
		got, err2 := parseProcesslistVertical(withoutTS(restored))
		if err1 != nil || err2 != nil || len(got) != len(want) || len(got) == 0 {
			t.Fatalf("%s: %d rows (%v), want %d (%v)", name, len(got), err2, len(want), err1)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s row %d = %+v, want %+v", name, i, got[i], want[i])
			}
		}
	}
	if _, ok := RestoreVerticalLines("just some text"); ok {
		t.Error("plain text restored")
	}
}

func withoutTS(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, "TS ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// FuzzRestoreVerticalLines: any text restores or says no, never panics, and
// a restored text is only ever longer by its line breaks.
func FuzzRestoreVerticalLines(f *testing.F) {
	f.Add(flatten("TS 1.0 2018-03-05 13:24:57\n*************************** 1. row ***************************\n" +
		"     Id: 1\n   User: a\nCommand: Sleep\n  State:\n   Info: NULL\n"))
	f.Add("*************************** 1. row ***************************Id:")
	f.Fuzz(func(t *testing.T, text string) {
		out, ok := RestoreVerticalLines(text)
		if !ok {
			return
		}
		if len(strings.ReplaceAll(out, "\n", "")) > len(text) {
			t.Fatalf("restored %q from %q", out, text)
		}
	})
}
