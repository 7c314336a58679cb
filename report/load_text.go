package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// textLoad prints where the sessions' time went: the classes, biggest
// first, then the biggest slices.
func textLoad(p *printer, l *Load) {
	if l == nil {
		return
	}
	p.f("\nDatabase load (average active sessions%s)\n", cpusNote(l.CPUs))
	p.f("  average %s, peak %d at %s\n", num(l.AverageActive), l.PeakActive, clockOf(l.PeakAt))
	p.f("  %s\n", classesLine(l.Average))
	for _, t := range l.Top {
		p.f("  %-9s %6s %4.0f%%  %s\n", t.By, num(t.Load), t.Share*100, truncate(t.Name, 90))
	}
}

// mdLoad is textLoad as a Markdown section.
func mdLoad(p *printer, l *Load) {
	if l == nil {
		return
	}
	p.f("\n### Database load\n\n")
	p.f("Average %s active sessions%s, peak %d at %s: %s.\n\n", num(l.AverageActive), cpusNote(l.CPUs), l.PeakActive, clockOf(l.PeakAt), mdText(classesLine(l.Average)))
	if len(l.Top) == 0 {
		return
	}
	p.f("| By | Load | Share | Classes | Name |\n|---|---:|---:|---|---|\n")
	for _, t := range l.Top {
		p.f("| %s | %s | %.0f%% | %s | `%s` |\n", t.By, num(t.Load), t.Share*100, mdCell(classesLine(t.Classes)), mdCode(truncate(t.Name, 120)))
	}
}

func cpusNote(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("; %d CPUs", n)
}

// classesLine is "row_lock 2.10 (65%), cpu 0.80 (25%)": the classes with
// load, biggest first.
func classesLine(l snapshot.ClassLoad) string {
	total := l.Total()
	if total <= 0 {
		return "no active sessions"
	}
	order := make([]snapshot.WaitClass, 0, snapshot.NumWaitClasses)
	for c := range snapshot.NumWaitClasses {
		if l[c] > 0 {
			order = append(order, c)
		}
	}
	slices.SortStableFunc(order, func(a, b snapshot.WaitClass) int { return cmp.Compare(l[b], l[a]) })
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%s %s (%.0f%%)", c, num(l[c]), l[c]/total*100)
	}
	return strings.Join(parts, ", ")
}
