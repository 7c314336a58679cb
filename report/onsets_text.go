package report

import (
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// textOnsetRoot opens the report with what changed first in each episode.
func textOnsetRoot(p *printer, os []snapshot.Onset) {
	any := false
	for _, o := range os {
		if o.Rank == 1 {
			p.f("ROOT CAUSE (what changed first): %s\n", onsetLine(o))
			any = true
		}
	}
	if any {
		p.f("\n")
	}
}

// textOnsets lists each episode's causes, ranked, with their evidence.
func textOnsets(p *printer, os []snapshot.Onset) {
	if len(os) == 0 {
		return
	}
	p.f("What changed against this server's normal (%d)\n", len(os))
	for _, o := range os {
		p.f("  #%d %-8s %-20s %s\n", o.Rank, clockOf(o.At), o.Cause, o.Title)
		for _, ev := range o.Evidence {
			p.f("           - %s\n", ev)
		}
		if len(o.Threads) > 0 {
			p.f("           threads: %s\n", joinIDs(o.Threads))
		}
		if o.Advice != "" {
			p.f("           advice: %s\n", o.Advice)
		}
	}
	p.f("\n")
}

// mdOnsets is textOnsets for a ticket.
func mdOnsets(p *printer, os []snapshot.Onset) {
	for _, o := range os {
		if o.Rank == 1 {
			p.f("> **Root cause** (what changed first): %s\n\n", mdText(onsetLine(o)))
		}
	}
	if len(os) == 0 {
		return
	}
	p.f("### What changed against this server's normal\n\n| Rank | Onset | Cause | What |\n|---:|---|---|---|\n")
	for _, o := range os {
		p.f("| %d | %s | %s | %s |\n", o.Rank, clockOf(o.At), o.Cause, mdCell(o.Title+": "+strings.Join(o.Evidence, "; ")))
	}
	p.f("\n")
}

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ", ")
}
