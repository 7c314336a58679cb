// Package report summarises a run of Frames for a write-up: the period, the
// server, and each finding episode with its onset, last sighting and evidence.
// The same Frames feed the dashboard, so a report says what the screen said.
package report
