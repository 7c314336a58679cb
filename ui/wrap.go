package ui

import (
	"strings"

	"github.com/rivo/uniseg"
)

// wrapWords breaks s into lines of at most width cells at spaces; a word
// longer than width gets a line of its own, cut at width.
func wrapWords(s string, width int) []string {
	var lines []string
	var cur strings.Builder
	curW := 0
	for _, word := range strings.Fields(s) {
		w := uniseg.StringWidth(word)
		switch {
		case curW == 0:
		case curW+1+w <= width:
			cur.WriteByte(' ')
			curW++
		default:
			lines = append(lines, cur.String())
			cur.Reset()
			curW = 0
		}
		for w > width { // a URL or a path: hard cut
			head := prefixOfWidth(word, width)
			lines = append(lines, head)
			word = word[len(head):]
			w = uniseg.StringWidth(word)
		}
		cur.WriteString(word)
		curW += w
	}
	if curW > 0 || len(lines) == 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// prefixOfWidth is the longest prefix of s at most width cells wide.
func prefixOfWidth(s string, width int) string {
	w, end := 0, 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		if w+g.Width() > width {
			break
		}
		w += g.Width()
		_, end = g.Positions()
	}
	return s[:end]
}
