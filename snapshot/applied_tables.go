package snapshot

import "strings"

// CollectorAppliedTables is the keys of the tables a replica's SQL thread
// searches row by row (Snapshot.AppliedTables).
const CollectorAppliedTables CollectorName = "applied_tables"

// AppliedTable is what the server says of the keys of one table an applier
// searches (find_row): a row event on a table with neither a primary key nor
// a unique key of NOT NULL columns scans the table for every row it changes.
type AppliedTable struct {
	Name       string `json:"name"` // "db.table"
	PrimaryKey bool   `json:"primary_key,omitempty"`
	// UniqueKey is a unique index other than the primary key.
	UniqueKey bool `json:"unique_key,omitempty"`
	// Indexes counts its indexes.
	Indexes int `json:"indexes,omitempty"`
}

// SearchesRows reports an applier searching for the row an event changes:
// MariaDB's "Update_rows_log_event::find_row(-1)" and
// "Delete_rows_log_event::find_row(-1)". MySQL's "Applying batch of row
// changes" names every row event, searched or not, so it is not one.
func SearchesRows(state string) bool { return strings.Contains(strings.ToLower(state), "find_row") }

// AppliedTableNames are the tables the statement an applier shows names,
// as "db.table" (the thread's database for unqualified names).
func AppliedTableNames(p *Process) []string { return StatementTables(p.Info, p.DB) }
