package snapshot

import "time"

// Load is one sample's database load: the active sessions, each in one wait
// class, and the same sessions sliced by statement, user, host, database
// and the lock they wait on. It is computed from the Snapshot and its Rates
// alone (LoadMeter), so a live run, its replay and an imported capture give
// the same load.
type Load struct {
	At time.Time `json:"t"`
	// Interval is the seconds this sample stands for: the frame's interval,
	// 1 when there is none (the first frame, after a gap).
	Interval float64 `json:"interval"`
	// Active is the sessions in a class; Classes adds up to it.
	Active  int       `json:"active"`
	Classes ClassLoad `json:"classes"`
	// CPUs is the host's CPU count, the reference the load is read against:
	// more sessions on CPU than CPUs means they queue for one. 0: unknown.
	CPUs int `json:"cpus,omitempty"`
	// Slices are the biggest slices of each dimension, at most
	// maxSlicesPerDim of each, biggest first within a dimension.
	Slices []LoadSlice `json:"slices,omitempty"`
}

// LoadDim is what a slice of the load is cut by.
type LoadDim string

// Dimensions of the load.
const (
	DimStatement LoadDim = "statement" // the statement's fingerprint
	DimUser      LoadDim = "user"
	DimHost      LoadDim = "host" // the client's host, without its port
	DimDB        LoadDim = "db"
	DimObject    LoadDim = "object" // the table a lock wait is on (lock classes only)
)

// LoadSlice is the part of the load one statement, user, host, database or
// locked object accounts for.
type LoadSlice struct {
	By      LoadDim   `json:"by"`
	Name    string    `json:"name"`
	Classes ClassLoad `json:"classes"`
}

// Sessions is the slice's active sessions (or their average).
func (s *LoadSlice) Sessions() float64 { return s.Classes.Total() }

// Placeholders for a slice whose value the processlist leaves empty.
const (
	NoStatement = "(no statement)"
	NoDB        = "(no db)"
)
