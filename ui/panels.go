package ui

import "github.com/mytop-go/mytop-go/snapshot"

// panel is one box of the row under the processlist: its title, the source
// whose staleness the title shows, its lines for an inner width and height,
// and the least width it is readable at.
type panel struct {
	title    string
	source   snapshot.CollectorName
	lines    func(w, h int) []string
	minWidth int
}

// panels lists the boxes of the panel row, left to right. Adding one is one
// entry here.
func (d *Dashboard) panels() []panel {
	return []panel{
		{"Server /s", snapshot.CollectorStatus, func(w, _ int) []string { return serverLines(d.frame, d.hist, w) }, 40},
		{"InnoDB", snapshot.CollectorInnoDB, func(int, int) []string { return innodbLines(d.frame) }, 40},
		{"Host", snapshot.CollectorHost, func(w, h int) []string { return hostLines(d.frame, d.hist, w, h) }, 40},
	}
}

// panelsMinWidth is the screen width the panel row needs: every panel at its
// minimum.
func (d *Dashboard) panelsMinWidth() int {
	n := 0
	for _, p := range d.panels() {
		n += p.minWidth
	}
	return n
}
