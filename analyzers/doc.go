// Package analyzers names incidents: one pure rule per file turns a window of
// Frames into a raw signal, and the Engine adds onset/clear persistence so the
// findings a DBA reads do not flicker. Thresholds live in Config.
package analyzers
