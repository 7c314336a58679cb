// Package analyzers names incidents: one pure rule per file turns a window of
// Frames into a raw signal, and the Engine adds onset/clear persistence so the
// findings a DBA reads do not flicker. Thresholds live in Config.
//
// Comments cite the source of each number by a tag: a public tool (PTS, MT,
// PMM-A…), a rule of the research notes the rules were built from (QC-01,
// FTS-01…) or one of their conventions (§1.3). docs/sources.md says what
// each tag means and where to read it; docs/rules-catalogue.md says what each
// finding means and what to do.
package analyzers
