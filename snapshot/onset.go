package snapshot

import "time"

// Onset is one cause of what changed on the server against its own recent
// normal (package baseline): when it started, in plain words what class of
// cause it is, how it ranks among the causes of the same episode, and the
// signals that moved with their values before and after. A server that is
// always busy shows its chronic findings all day; onsets say what is new.
type Onset struct {
	At time.Time `json:"at"`
	// Cause is one of the Cause… class names, words a DBA reads.
	Cause string `json:"cause"`
	// Rank is 1 for the cause to act on first.
	Rank int `json:"rank"`
	// Title says the cause in one line ("CPU taken by a process outside
	// mysqld: stress-ng (pid 812) 1.9 CPUs").
	Title    string        `json:"title"`
	Signals  []OnsetSignal `json:"signals"`
	Evidence []string      `json:"evidence,omitempty"`
	Advice   string        `json:"advice,omitempty"`
	Threads  []int64       `json:"threads,omitempty"`
	// Statements are the fingerprints of the statements the cause is about.
	Statements []string `json:"statements,omitempty"`
	// Score is how far the cause's signals moved, in robust z (weighted by
	// how directly the class names a root cause); the rank follows it.
	Score float64 `json:"score"`
}

// OnsetSignal is one signal that left its normal band: Before is the
// baseline's median, After the recent value.
type OnsetSignal struct {
	Name   string  `json:"name"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

// Cause classes of an onset, as the JSON contract names them.
const (
	CauseCPUOutside  = "cpu outside mysqld"
	CauseDisk        = "disk"
	CauseWorkload    = "workload spike"
	CauseStatement   = "statement"
	CauseLocks       = "locks"
	CauseFlush       = "flush"
	CauseRoutine     = "routine work"
	CauseNetwork     = "network"
	CauseReplication = "replication"
	CauseMemory      = "memory"
)

// Normal says whether a frame was judged against a baseline, and of how
// much history.
type Normal struct {
	// Ready is false during the warm-up: no onset can be judged yet.
	Ready bool `json:"ready"`
	// History is the minutes of normal the baseline holds.
	HistoryMinutes float64 `json:"history_minutes"`
	// Since is the oldest moment the baseline holds.
	Since time.Time `json:"since,omitzero"`
	// Frozen is set while an episode is open: the baseline learns nothing
	// from it.
	Frozen bool `json:"frozen,omitempty"`
	// Note is the one line for the screen: "no baseline yet (3 min of
	// history)", "baseline: 30 min of normal".
	Note string `json:"note"`
}
