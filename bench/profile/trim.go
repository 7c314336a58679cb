package main

import "github.com/mytop-go/mytop-go/pipeline"

// trimBehind is how far back in the analyzers' window a frame keeps its
// processlist: rules look back at most SightingWindow (15) frames at threads,
// the rest of the window only at counters and times.
const trimBehind = 30

// trimOld tries the proposed memory fix from outside the pipeline: the frame
// that has just fallen trimBehind frames back loses its per-thread and
// raw-text parts. It edits that snapshot in place because the analyzers'
// engine keeps every window frame reachable through its per-frame cache
// (keyed by *Frame), so a thinned copy in the window would free nothing. Here
// that is safe: the recorder wrote the frame long ago and nothing else reads
// it. The proposal for pipeline/ and analyzers/ is in bench/RESULTS.md.
func trimOld(b *pipeline.Builder) {
	w := b.Window()
	i := len(w) - 1 - trimBehind
	if i < 0 || w[i] == nil || w[i].Snapshot == nil {
		return
	}
	s := w[i].Snapshot
	s.Processlist, s.Explains = nil, nil
	if s.InnoDB != nil {
		in := *s.InnoDB
		in.Raw = ""
		s.InnoDB = &in
	}
}
