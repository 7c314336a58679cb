// Package recording reads and writes mytop-go recording files: one SQLite file
// per session holding every Snapshot (zstd-compressed against the previous
// frame), plus plain tables of key figures and findings for ad-hoc SQL.
// docs/recording-format.md is the format's reference.
package recording
