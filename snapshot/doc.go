// Package snapshot is mytop-go's data model: what one sample of a server and its
// host holds (Snapshot), the per-second view of two samples (Rates), and what the
// dashboard, recorder and report consume (Frame). Reading server text into it is
// snapshot/parse's; conclusions drawn from it are snapshot/infer's.
package snapshot
