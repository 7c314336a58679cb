package main

import "github.com/mytop-go/mytop-go/pipeline"

// trimBehind is how far back in the analyzers' window a frame keeps its
// processlist: rules look back at most SightingWindow (15) frames at threads,
// the rest of the window only at counters and times.
const trimBehind = 30

// trimOld is the proposed fix for the builder's memory, tried from outside:
// the frame that has just fallen trimBehind frames back is replaced in the
// window by a copy without the per-thread and raw-text parts. The original
// frame is left intact for whoever else still holds it (UI, recorder); the
// frames the engine compares by pointer (the newest two) are never touched.
func trimOld(b *pipeline.Builder) {
	w := b.Window()
	i := len(w) - 1 - trimBehind
	if i < 0 || w[i] == nil || w[i].Snapshot == nil {
		return
	}
	f := *w[i]
	s := *f.Snapshot
	s.Processlist, s.Explains = nil, nil
	if s.InnoDB != nil {
		in := *s.InnoDB
		in.Raw = ""
		s.InnoDB = &in
	}
	f.Snapshot = &s
	w[i] = &f
}
