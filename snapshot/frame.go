package snapshot

import "time"

// Frame is what every consumer (dashboard, recorder, report) receives: one
// Snapshot with its per-second view against the previous one and the findings
// the analyzers raised over the window ending here.
type Frame struct {
	// Seq numbers frames from 0 within one source.
	Seq      int       `json:"seq"`
	Snapshot *Snapshot `json:"snapshot"`
	// Rates is nil for the first frame and right after a gap (no previous sample).
	Rates    *Rates    `json:"rates,omitempty"`
	Findings []Finding `json:"findings,omitempty"`
	// Load is the database load of this sample (load.go); nil when the
	// sample says nothing of sessions. Consumers' frames keep it, so views
	// read minutes of it; in the analyzers' window it outlives the
	// processlist for the minute rules read (pipeline.LoadHistory).
	Load *Load `json:"load,omitempty"`
	// NotApplicable lists rules that cannot run on this source, with the reason.
	NotApplicable map[string]string `json:"not_applicable,omitempty"`
	// Mode says where frames come from (ModeLive, ModeReplay, ModeImport); for the
	// header only: consumers must not behave differently by it.
	Mode Mode `json:"mode,omitempty"`
	// Recording is the recording file being written, if any (for the header).
	Recording string `json:"recording,omitempty"`
	// Onsets are the causes of the episode open at this frame, judged
	// against the server's own normal (package baseline), rank 1 first;
	// nil when nothing departs from it.
	Onsets []Onset `json:"onsets,omitempty"`
	// Normal says how much baseline the frame was judged against.
	Normal *Normal `json:"normal,omitempty"`
}

// Time is the snapshot's time.
func (f *Frame) Time() time.Time { return f.Snapshot.Time }

// Severity of a finding, ordered so that a larger value is more severe.
type Severity int

// Severities.
const (
	Info Severity = iota
	Warning
	Critical
)

func (s Severity) String() string {
	switch s {
	case Critical:
		return "critical"
	case Warning:
		return "warning"
	default:
		return "info"
	}
}

// MarshalText writes the severity as its name, as the JSON contract wants.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "critical":
		*s = Critical
	case "warning":
		*s = Warning
	default:
		*s = Info
	}
	return nil
}

// Finding is one named problem, with the evidence that proves it.
type Finding struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	Title    string   `json:"title"`
	Evidence []string `json:"evidence,omitempty"`
	Advice   string   `json:"advice,omitempty"`
	// Threads are processlist ids the finding is about, for highlighting.
	Threads []int64 `json:"threads,omitempty"`
	// Tables are the tables the finding is about (schema.table as the
	// statement names them), so other findings can be linked to it.
	Tables []string `json:"tables,omitempty"`
	// RootBlockers are the threads at the root of the lock tree, for lock-wait findings.
	RootBlockers []RootBlocker `json:"root_blockers,omitempty"`
	// Since is the onset: the first frame of the current episode.
	Since time.Time `json:"since"`
	// CausedBy are the IDs of the findings standing in the same frame that
	// cause this one (analyzers/causes.go says how each link is proven), and
	// CauseThreads the threads of those causes to act on.
	CausedBy     []string `json:"caused_by,omitempty"`
	CauseThreads []int64  `json:"cause_threads,omitempty"`
	// Chronic is set when the finding stood through the server's baseline
	// (it is how this server runs, not news); ChronicSince is the oldest
	// moment of the baseline it was seen in ("steady since before 13:50").
	Chronic      bool      `json:"chronic,omitempty"`
	ChronicSince time.Time `json:"chronic_since,omitzero"`
}
