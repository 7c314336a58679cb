package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// LIMIT … OFFSET n reads and throws away n rows (in InnoDB: n clustered-index
// entries) to return a page; deep pages cost as much as a scan (the clustered-index write-up:
// OFFSET 60000 read 60,000 rows to return 20). Pages are short, so a 1-s
// sample catches them now and then: the rule counts the samples of the
// SightingWindow that saw one.

type offsetQuery struct {
	p      *snapshot.Process
	offset int64
}

// deepPage returns the OFFSET of a running SELECT at or above min.
func deepPage(p *snapshot.Process, min int64) (int64, bool) {
	if !isRunningStatement(p) || snapshot.StatementVerb(p.Info) != "SELECT" {
		return 0, false
	}
	off, ok := limitOffset(p.Info)
	if !ok || off < min {
		return off, false
	}
	// A Percona Toolkit chunk boundary (LIMIT 999, 2) is routine work's, not a page.
	return off, classifyRoutineStatement(p.Info).strength != markerTool
}

// IDDeepOffsetPagination names the findings of deep_offset_pagination: a
// contract (the README's findings table), stable, never reused.
const IDDeepOffsetPagination = "deep_offset_pagination"

// DeepOffsetConfig holds deep_offset_pagination's thresholds, each with its source
// and the trap it avoids.
type DeepOffsetConfig struct {
	// DeepOffsetMin: OFFSET at or above this reads and discards that many rows
	// (the clustered-index write-up used OFFSET 60000; threshold UNKNOWN).
	// Trap: ordinary paging near the first pages.
	DeepOffsetMin int64

	// DeepOffsetSightingsMin: deep pages seen in this many samples of the
	// SightingWindow make a pattern, not a one-off (UNKNOWN).
	// Trap: one crawler request.
	DeepOffsetSightingsMin int
}

func (c *DeepOffsetConfig) defaults() {
	*c = DeepOffsetConfig{
		DeepOffsetMin:          10000,
		DeepOffsetSightingsMin: 3,
	}
}

// deepOffsetPaginationRule is deep_offset_pagination in the rules table
// (rule.go). Counted over SightingWindow already.
var deepOffsetPaginationRule = rule{id: IDDeepOffsetPagination, check: checkDeepOffsetPagination, persist: persistFor(1*time.Second, 5*time.Second)}

func checkDeepOffsetPagination(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorProcesslist); r != "" {
		return notApplicable(r)
	}
	sightings := 0
	var latest *snapshot.Frame
	for _, f := range w.recent(max(c.SightingWindow, 1)) {
		if w.countsOf(f).deepPages > 0 {
			sightings++
			latest = f
		}
	}
	if sightings < max(c.DeepOffsetSightingsMin, 1) {
		return checkDeepOffsetDigests(w, c) // pages only digests see (deep_offset_digest.go)
	}
	deep := deepPagesIn(latest, c.DeepOffsetMin)
	worst := deep[0]
	for _, d := range deep[1:] {
		if d.offset > worst.offset {
			worst = d
		}
	}
	title := fmt.Sprintf("SELECTs page with OFFSET up to %s, reading the skipped rows each time",
		fmtCount(worst.offset))
	ev := []string{fmt.Sprintf("deep pages (OFFSET ≥ %s) running in %d of the last %d samples", fmtCount(c.DeepOffsetMin),
		sightings, min(len(w.frames), max(c.SightingWindow, 1)))}
	procs := make([]*snapshot.Process, 0, len(deep))
	for i, d := range deep {
		procs = append(procs, d.p)
		if i < maxThreadLines {
			ev = append(ev, fmt.Sprintf("OFFSET %s: %s", fmtCount(d.offset), threadLine(d.p)))
		}
	}
	if len(deep) > maxThreadLines {
		ev = append(ev, fmt.Sprintf("… and %d more", len(deep)-maxThreadLines))
	}
	ev = appendNonEmpty(ev, w.counterLine("Handler_read_next"), w.counterLine("Handler_read_rnd_next"),
		w.counterLine("Innodb_rows_read"))
	return withDigestProof(raise(snapshot.Warning, title, ev,
		"Use key-set (seek) pagination instead of OFFSET: remember the last key of the page and ask for "+
			"WHERE key > :last ORDER BY key LIMIT n, with an index on the ordering columns; or cap how deep "+
			"users may page.", ids(procs, maxThreadIDs)), deepOffsetDigests(w, c))
}

// deepPagesIn lists f's running deep pages, longest-running first.
func deepPagesIn(f *snapshot.Frame, min int64) []offsetQuery {
	var out []offsetQuery
	list := f.Snapshot.Processlist
	for i := range list {
		if off, ok := deepPage(&list[i], min); ok {
			out = append(out, offsetQuery{&list[i], off})
		}
	}
	return out
}
