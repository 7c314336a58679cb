package report

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// writeText prints the report for a terminal or an e-mail.
func writeText(w io.Writer, r Report) error {
	p := &printer{w: w}
	textOnsetRoot(p, r.Onsets)
	textRootCauses(p, r.RootCauses)
	p.f("mytop-go report: %s\n", r.Source)
	p.f("period:  %s .. %s (%s, %d frames)%s\n", stamp(r.From), stamp(r.To), r.To.Sub(r.From).Round(time.Second), r.Frames, approx(r))
	p.f("server:  %s\n", serverLine(r.Server))
	if r.Normal != nil {
		p.f("normal:  %s\n", r.Normal.Note)
	}
	p.f("\n")
	textOnsets(p, r.Onsets)
	p.f("Findings (%d)\n", len(r.Findings))
	if len(r.Findings) == 0 {
		p.f("  none\n")
	}
	for _, e := range r.Findings {
		p.f("  %-8s %-24s %s .. %s (%s)\n", strings.ToUpper(e.Severity.String()), e.ID, clockOf(e.From), clockOf(e.To), spanOf(e))
		p.f("           %s%s\n", e.Title, chronicWords(e))
		if len(e.CausedBy) > 0 {
			p.f("           caused by: %s\n", strings.Join(e.CausedBy, ", "))
		}
		for _, ev := range e.Evidence {
			p.f("           - %s\n", ev)
		}
		if e.Advice != "" {
			p.f("           advice: %s\n", e.Advice)
		}
	}
	textChanges(p, r)
	p.f("\nKey figures              min     median        max\n")
	for _, s := range r.Series {
		if s.Samples == 0 {
			p.f("  %-20s %s\n", s.Name, "not in this source")
			continue
		}
		p.f("  %-20s %8s %10s %10s %s\n", s.Name, num(s.Min), num(s.Median), num(s.Max), s.Unit)
	}
	textLoad(p, r.Load)
	textTopStatements(p, r.Statements)
	textStatements(p, "Top statements by time (thread-seconds seen running)", r.TopByTime)
	textStatements(p, "Top statements by count (sightings)", r.TopByCount)
	return p.err
}

func textStatements(p *printer, title string, list []Statement) {
	p.f("\n%s\n", title)
	if len(list) == 0 {
		p.f("  none seen running\n")
	}
	for _, s := range list {
		p.f("  %8.0fs %6d× max %6.0fs  %s\n", s.Seconds, s.Seen, s.MaxSeconds, truncate(s.Fingerprint, 100))
	}
}

// printer remembers the first write error so the writers stay linear.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func stamp(t time.Time) string { return t.Format("2006-01-02 15:04:05") }

func clockOf(t time.Time) string { return t.Format("15:04:05") }

func spanOf(e Episode) string {
	return fmt.Sprintf("%s, %d frames", e.To.Sub(e.From).Round(time.Second), e.Frames)
}

func approx(r Report) string {
	if r.Approximate {
		return ", times approximate"
	}
	return ""
}

func serverLine(s Server) string {
	parts := []string{}
	for _, v := range []string{s.Address, s.Version, s.Flavor} {
		if v != "" {
			parts = append(parts, v)
		}
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, "  ")
}

func num(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// textRootCauses opens the report with what to fix first.
func textRootCauses(p *printer, rcs []RootCause) {
	for _, rc := range rcs {
		p.f("ROOT CAUSE (%s, %s from %s): %s\n", rc.ID, rc.Severity, clockOf(rc.First), rc.Line)
	}
	if len(rcs) > 0 {
		p.f("\n")
	}
}
