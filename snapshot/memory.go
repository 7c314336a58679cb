package snapshot

import "time"

// MemoryHolders is what holds mysqld's memory, read while it grows (and now
// and then otherwise), carried between reads.
type MemoryHolders struct {
	// Tables are the biggest MEMORY tables, biggest first.
	Tables []MemoryTable `json:"tables,omitempty"`
	// Events are performance_schema.memory_summary_global_by_event_name's
	// biggest current allocations, biggest first; nil when not instrumented.
	Events []MemoryEvent `json:"events,omitempty"`
	// ReadAt is when they were read.
	ReadAt time.Time `json:"read_at,omitzero"`
}

// MemoryTable is one table of the MEMORY engine and what it holds.
type MemoryTable struct {
	Name  string `json:"name"` // "db.table"
	Bytes int64  `json:"bytes"`
	Rows  int64  `json:"rows,omitempty"`
}

// MemoryEvent is one instrumented allocation's current size.
type MemoryEvent struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
}
