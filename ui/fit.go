package ui

import (
	"strings"

	"github.com/rivo/tview"
)

// item is one piece of a header line; when the line is too wide the items of
// lowest priority go first, so an 80-column terminal keeps what matters.
type item struct {
	text string
	prio int
}

const itemGap = "  "

// fit joins items in order, dropping the least important until they fit.
func fit(items []item, width int) string {
	keep := make([]bool, len(items))
	for i := range keep {
		keep[i] = items[i].text != ""
	}
	for lineWidth(items, keep) > width {
		drop := -1
		for i, it := range items {
			if keep[i] && (drop < 0 || it.prio < items[drop].prio) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		keep[drop] = false
	}
	var parts []string
	for i, it := range items {
		if keep[i] {
			parts = append(parts, it.text)
		}
	}
	return strings.Join(parts, itemGap)
}

func lineWidth(items []item, keep []bool) int {
	w, n := 0, 0
	for i, it := range items {
		if keep[i] {
			w += tview.TaggedStringWidth(it.text)
			n++
		}
	}
	if n > 1 {
		w += (n - 1) * len(itemGap)
	}
	return w
}
