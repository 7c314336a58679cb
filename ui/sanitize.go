package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rivo/tview"
)

// Server text (query text, user names, error messages) is attacker-controlled:
// anyone who can send a query can put terminal escape sequences in it. Nothing
// from the server reaches the screen without passing through here.

// safeLine makes s printable on one line: line breaks and tabs become spaces,
// other control characters '?', invalid UTF-8 bytes \xNN, and tview style
// tags are escaped. maxRunes > 0 truncates first, bounding the cost of huge
// statements.
func safeLine(s string, maxRunes int) string {
	return escapeTags(sanitize(s, maxRunes, false))
}

// escapeTags is tview.Escape, whose regular expression was a tenth of a
// frame's allocations; text without '[' holds no tag to escape.
func escapeTags(s string) string {
	if strings.IndexByte(s, '[') < 0 {
		return s
	}
	return tview.Escape(s)
}

// safeText is safeLine that keeps line breaks, for wrapped views.
func safeText(s string) string {
	return escapeTags(sanitize(s, 0, true))
}

func sanitize(s string, maxRunes int, keepNewlines bool) string {
	if isPlain(s) && (maxRunes <= 0 || len(s) <= maxRunes) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	n := 0
	for i := 0; i < len(s); {
		if maxRunes > 0 && n >= maxRunes {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02X`, s[i])
		case r == '\n' && keepNewlines:
			b.WriteByte('\n')
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case isControl(r):
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
		i += size
		n++
	}
	return b.String()
}

// isPlain is the fast path: printable ASCII needs no rewriting.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// isControl covers C0, DEL, C1 and the bidirectional overrides that can make
// a query look like a different one.
func isControl(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
