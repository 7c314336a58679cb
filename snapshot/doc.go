// Package snapshot is mytop-go's data model: what one sample of a server and its
// host holds (Snapshot), the per-second view of two samples (Rates), and what the
// dashboard, recorder and report consume (Frame). Parsers of server output live
// here too, because live collectors and importers of captured logs both need them.
package snapshot
