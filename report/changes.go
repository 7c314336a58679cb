package report

import "github.com/mytop-go/mytop-go/changes"

// textChangesShown bounds the changes a text or Markdown report lists; JSON
// has them all.
const textChangesShown = 40

func textChanges(p *printer, r Report) {
	if r.Baseline == nil {
		return
	}
	p.f("\nWhat changed since %s .. %s (%d frames%s)\n", stamp(r.Baseline.From), stamp(r.Baseline.To), r.Baseline.Frames, ofSource(r.Baseline))
	if len(r.Changes) == 0 {
		p.f("  nothing moved beyond the thresholds\n")
	}
	for i, c := range r.Changes {
		if i == textChangesShown {
			p.f("  … %d more (--format json lists all)\n", len(r.Changes)-i)
			break
		}
		p.f("  %s\n", c.Line())
	}
}

func mdChanges(p *printer, r Report) {
	if r.Baseline == nil {
		return
	}
	p.f("### What changed since %s .. %s\n\n", stamp(r.Baseline.From), stamp(r.Baseline.To))
	if len(r.Changes) == 0 {
		p.f("Nothing moved beyond the thresholds.\n\n")
		return
	}
	for i, c := range r.Changes {
		if i == textChangesShown {
			p.f("- … %d more\n", len(r.Changes)-i)
			break
		}
		p.f("- %s\n", mdText(c.Line()))
	}
	p.f("\n")
}

func ofSource(b *Period) string {
	if b.Source == "" {
		return ""
	}
	return " of " + b.Source
}

// SetBaseline adds the comparison with a healthy window to the report.
func (r *Report) SetBaseline(b Period, cs []changes.Change) {
	r.Baseline, r.Changes = &b, cs
}
