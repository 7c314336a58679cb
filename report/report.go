package report

import (
	"fmt"
	"github.com/mytop-go/mytop-go/changes"
	"io"
	"sort"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Report is the summary of one source. Its JSON form is a contract (README, "Findings" and the sections it links).
type Report struct {
	// RootCauses come first: the findings that caused others, to fix first.
	RootCauses []RootCause `json:"root_causes"`
	// Onsets are what changed against the server's own normal, each
	// episode's causes ranked, episodes in time order (package baseline).
	Onsets []snapshot.Onset `json:"onsets"`
	// Normal is the baseline the last frame was judged against.
	Normal   *snapshot.Normal `json:"normal,omitempty"`
	Source   string           `json:"source"`
	From     time.Time        `json:"from"`
	To       time.Time        `json:"to"`
	Frames   int              `json:"frames"`
	Server   Server           `json:"server"`
	Findings []Episode        `json:"findings"`
	// Series summarises the key figures min/median/max.
	Series []Summary `json:"series"`
	// TopByTime and TopByCount are the statements seen running, fingerprinted.
	TopByTime  []Statement `json:"top_statements_by_time"`
	TopByCount []Statement `json:"top_statements_by_count"`
	// Statements are the top statements per second over the whole range, from
	// the server's digests when present (statements_digest.go).
	Statements []snapshot.StatementRate `json:"statements"`
	// Load is the database load by wait class (load.go); absent when the
	// source has no processlist.
	Load *Load `json:"load,omitempty"`
	// Approximate is set when the source's clock is reconstructed (e.g. pt-stalk
	// mysqladmin samples), so times are only close.
	Approximate bool `json:"approximate,omitempty"`
	// Baseline is the healthy window the report was compared with (report
	// --baseline, diff); Changes is what moved since, biggest first.
	Baseline *Period          `json:"baseline,omitempty"`
	Changes  []changes.Change `json:"changes,omitempty"`
	// Timeline is the figures over time that the HTML charts (timeline.go).
	Timeline *Timeline `json:"timeline,omitempty"`
	// Picture is the dashboard at Timeline.Worst as SVG markup, which the
	// HTML inlines; the caller draws it (SetPicture), since this package
	// knows nothing of the screen.
	Picture string `json:"-"`
}

// SetPicture gives the HTML its dashboard picture.
func (r *Report) SetPicture(svg string) { r.Picture = svg }

// Period is a window of a source.
type Period struct {
	Source string    `json:"source,omitempty"`
	From   time.Time `json:"from"`
	To     time.Time `json:"to"`
	Frames int       `json:"frames"`
}

// Server identifies the server the source came from.
type Server struct {
	Address string `json:"address,omitempty"`
	Version string `json:"version"`
	Flavor  string `json:"flavor"`
}

// Episode is one finding from onset to clear.
type Episode struct {
	snapshot.Span
	Frames   int      `json:"frames"`
	Title    string   `json:"title"`
	Evidence []string `json:"evidence"`
	Advice   string   `json:"advice"`
	// RootBlockers are the lock tree's roots at the finding's most severe
	// moment (lock-wait findings only).
	RootBlockers []snapshot.RootBlocker `json:"root_blockers,omitempty"`
	// CausedBy are the IDs of the findings that caused this one in any frame
	// of the episode (analyzers/causes.go); empty when none did.
	CausedBy []string `json:"caused_by"`
	// Chronic is set when the finding stood through the server's baseline
	// in any frame of the episode: how the server runs, not news. Since is
	// then the oldest moment of the baseline it was seen in, else its onset.
	Chronic bool      `json:"chronic"`
	Since   time.Time `json:"since"`
}

// Builder accumulates frames into a Report.
type Builder struct {
	r      Report
	open   map[string]*Episode
	done   []*Episode
	series seriesAcc
	stmts  statementAcc
	top    topStatements
	causes rootCauseAcc
	load   loadAcc
	tl     timelineAcc
	onsets onsetAcc
}

// topN is how many statements each top list keeps.
const topN = 10

// NewBuilder starts a report for the named source.
func NewBuilder(source string) *Builder {
	return &Builder{r: Report{Source: source}, open: map[string]*Episode{}, stmts: statementAcc{}}
}

// Add takes the next frame in time order.
func (b *Builder) Add(f *snapshot.Frame) {
	s := f.Snapshot
	if b.r.Frames == 0 {
		b.r.From = s.Time
	}
	b.r.To = s.Time
	b.r.Frames++
	b.r.Approximate = b.r.Approximate || s.Approximate
	if s.Server.Version != "" {
		b.r.Server = Server{Address: s.Server.Address, Version: s.Server.Version, Flavor: s.Server.Flavor}
	}
	b.series.add(f)
	b.stmts.add(f)
	b.top.add(f)
	b.causes.add(f)
	b.load.add(f)
	b.tl.add(f)
	b.onsets.add(f)
	seen := make(map[string]bool, len(f.Findings))
	for i := range f.Findings {
		b.observe(&f.Findings[i], s.Time)
		seen[f.Findings[i].ID] = true
	}
	for id, e := range b.open {
		if !seen[id] {
			b.done = append(b.done, e)
			delete(b.open, id)
		}
	}
}

// observe extends the finding's open episode, keeping the evidence of its most
// severe moment, or opens a new one.
func (b *Builder) observe(f *snapshot.Finding, at time.Time) {
	e, ok := b.open[f.ID]
	if !ok {
		e = &Episode{Span: snapshot.Span{ID: f.ID, From: f.Since, Severity: -1}}
		if e.From.IsZero() || e.From.After(at) {
			e.From = at
		}
		b.open[f.ID] = e
	}
	e.To = at
	e.Frames++
	e.causedBy(f)
	e.chronicFrom(f)
	if f.Severity > e.Severity {
		e.Severity, e.Title, e.Evidence, e.Advice = f.Severity, f.Title, f.Evidence, f.Advice
		e.RootBlockers = f.RootBlockers
	} else if f.Severity == e.Severity && len(f.RootBlockers) > 0 && len(e.RootBlockers) == 0 {
		e.RootBlockers = f.RootBlockers
	}
}

// Report returns the summary so far: episodes by onset, then severity.
func (b *Builder) Report() Report {
	r := b.r
	r.Series = b.series.summaries()
	r.TopByTime, r.TopByCount = b.stmts.top(topN)
	r.Statements = b.top.top()
	r.RootCauses = b.causes.list()
	r.Load = b.load.report()
	r.Onsets, r.Normal = b.onsets.list(), b.onsets.normal
	all := append([]*Episode(nil), b.done...)
	for _, e := range b.open {
		all = append(all, e)
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].From.Equal(all[j].From) {
			return all[i].From.Before(all[j].From)
		}
		if all[i].Severity != all[j].Severity {
			return all[i].Severity > all[j].Severity
		}
		return all[i].ID < all[j].ID
	})
	r.Findings = make([]Episode, len(all))
	for i, e := range all {
		r.Findings[i] = *e
		if r.Findings[i].Evidence == nil {
			r.Findings[i].Evidence = []string{}
		}
		if r.Findings[i].CausedBy == nil {
			r.Findings[i].CausedBy = []string{}
		}
	}
	newFirst(r.Findings)
	bands := make([]snapshot.Span, len(r.Findings))
	for i, e := range r.Findings {
		bands[i] = snapshot.Span{ID: e.ID, Severity: e.Severity, From: e.From, To: e.To}
	}
	r.Timeline = b.tl.timeline(bands)
	return r
}

// WriterFor is the writer of a --format: text, json, markdown (md) or html.
func WriterFor(format string) (func(io.Writer, Report) error, error) {
	switch format {
	case "json":
		return writeJSON, nil
	case "text":
		return writeText, nil
	case "markdown", "md":
		return writeMarkdown, nil
	case "html":
		return writeHTML, nil
	}
	return nil, fmt.Errorf("--format %q: use text, json, markdown or html", format)
}
