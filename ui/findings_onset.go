package ui

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// onsetLine is the ROOT CAUSE line when the frame departs from the server's
// own normal: what changed first, since when, with its furthest-moved
// signal, and how many other causes moved with it. A busy server's chronic
// findings stand all day; this line says what is new.
func onsetLine(os []snapshot.Onset) string {
	if len(os) == 0 {
		return ""
	}
	o := os[0]
	line := "[yellow::b]ROOT CAUSE[-::-] since " + o.At.Format("15:04:05") + ", what changed: " + safeLine(o.Title, 200)
	if len(o.Evidence) > 0 {
		line += " — " + safeLine(o.Evidence[0], 120)
	}
	if len(os) > 1 {
		more := make([]string, 0, len(os)-1)
		for _, x := range os[1:] {
			more = append(more, x.Cause)
		}
		line += " [::d](then " + safeLine(strings.Join(more, ", "), 100) + ")[::-]"
	}
	return line
}

// chronicWords say a finding is how this server runs, not news.
func chronicWords(f *snapshot.Finding) string {
	return "chronic, steady since before " + f.ChronicSince.Format("15:04")
}
