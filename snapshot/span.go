package snapshot

import "time"

// Span is one finding episode: from its onset to the last frame that still
// carried it. The recording's timeline, the replay controls, the dashboard's
// timeline bar and the report's findings all use it.
type Span struct {
	ID       string    `json:"id"`
	Severity Severity  `json:"severity"`
	From     time.Time `json:"first_seen"`
	To       time.Time `json:"last_seen"`
	// Shown is the first frame that carried the finding. The onset (From) is
	// back-dated to the first frame of the signal; analyzers raise a finding
	// only once the signal has persisted, so Shown is where a replay shows it.
	// Zero when the source does not know it (a report).
	Shown time.Time `json:"shown,omitzero"`
}
