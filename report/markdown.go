package report

import (
	"io"
	"strings"
	"time"
)

// writeMarkdown prints the report so it pastes cleanly into a ticket.
func writeMarkdown(w io.Writer, r Report) error {
	p := &printer{w: w}
	p.f("## mytop-go report: `%s`\n\n", mdCode(r.Source))
	p.f("- **Period:** %s .. %s (%s, %d frames)%s\n", stamp(r.From), stamp(r.To), r.To.Sub(r.From).Round(time.Second), r.Frames, approx(r))
	p.f("- **Server:** %s\n\n", serverLine(r.Server))
	if r.Normal != nil {
		p.f("- **Normal:** %s\n\n", r.Normal.Note)
	}
	mdOnsets(p, r.Onsets)
	for _, rc := range r.RootCauses {
		p.f("> **Root cause** (`%s`, %s from %s): %s\n\n", rc.ID, rc.Severity, clockOf(rc.First), mdText(rc.Line))
	}
	p.f("### Findings\n\n")
	if len(r.Findings) == 0 {
		p.f("None.\n\n")
	} else {
		p.f("| Severity | Finding | From | To | Frames | What |\n|---|---|---|---|---|---|\n")
		for _, e := range r.Findings {
			p.f("| %s | `%s` | %s | %s | %d | %s |\n", e.Severity, e.ID, clockOf(e.From), clockOf(e.To), e.Frames,
				mdCell(e.Title+chronicWords(e)))
		}
		p.f("\n")
		for _, e := range r.Findings {
			p.f("#### `%s` at %s\n\n", e.ID, clockOf(e.From))
			if len(e.CausedBy) > 0 {
				p.f("Caused by: `%s`\n\n", strings.Join(e.CausedBy, "`, `"))
			}
			for _, ev := range e.Evidence {
				p.f("- %s\n", mdText(ev))
			}
			if e.Advice != "" {
				p.f("\n**Advice:** %s\n", mdText(e.Advice))
			}
			p.f("\n")
		}
	}
	mdChanges(p, r)
	p.f("### Key figures\n\n| Figure | Min | Median | Max |\n|---|---:|---:|---:|\n")
	for _, s := range r.Series {
		if s.Samples == 0 {
			p.f("| %s | n/a | n/a | n/a |\n", s.Name)
			continue
		}
		p.f("| %s%s | %s | %s | %s |\n", s.Name, unitSuffix(s.Unit), num(s.Min), num(s.Median), num(s.Max))
	}
	mdLoad(p, r.Load)
	mdStatements(p, "Top statements by time", r.TopByTime)
	mdStatements(p, "Top statements by count", r.TopByCount)
	return p.err
}

func mdStatements(p *printer, title string, list []Statement) {
	p.f("\n### %s\n\n", title)
	if len(list) == 0 {
		p.f("None seen running.\n")
		return
	}
	p.f("| Thread-seconds | Seen | Longest | Statement |\n|---:|---:|---:|---|\n")
	for _, s := range list {
		p.f("| %.0f | %d | %.0fs | `%s` |\n", s.Seconds, s.Seen, s.MaxSeconds, mdCode(truncate(s.Fingerprint, 120)))
	}
}

func unitSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " (" + u + ")"
}

// mdCell keeps a table cell on one line and its pipes literal.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(mdText(s), "\n", " "), "|", `\|`)
}

// mdText escapes characters that would turn server text into markup.
func mdText(s string) string {
	r := strings.NewReplacer("*", `\*`, "_", `\_`, "`", "'", "<", "&lt;", ">", "&gt;")
	return r.Replace(s)
}

// mdCode makes text safe inside a single-backtick code span.
func mdCode(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "`", "'"), "|", `\|`)
}
