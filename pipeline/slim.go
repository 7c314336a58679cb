package pipeline

import "github.com/mytop-go/mytop-go/snapshot"

// History is implemented by analyzers that say how much of older frames they
// read. The newest DetailFrames keep everything; older window frames keep
// times, server identity, collector states, parsed InnoDB and host figures,
// and of the status counters only KeptStatus. At 5,000 connections a
// processlist is about 1 MB, and 300 of them are what made the monitor's
// memory grow for five minutes; the status and rate maps are another 50 KB a
// frame that rules read only for the current one.
type History interface {
	DetailFrames() int
	KeptStatus() []string
}

// slimmer replaces window frames that fell behind the detail history with
// the thinned copies History describes.
// Consumers hold the original Frame, so a paused dashboard still shows the
// processlist of the frame it paused on.
type slimmer struct {
	keep   int
	status []string
	// InnoDB status is read every few ticks and shared by the snapshots in
	// between; its slim copy is shared the same way instead of made per frame.
	fullInnoDB, slimInnoDB *snapshot.InnoDBStatus
}

// slimAt slims window[len-1-keep], the frame that has just fallen behind.
func (s *slimmer) slimAt(window []*snapshot.Frame) {
	i := len(window) - 1 - s.keep
	if i < 0 || window[i] == nil || window[i].Snapshot == nil {
		return
	}
	f := *window[i]
	snap := *f.Snapshot
	snap.Processlist, snap.Explains, snap.Threads = nil, nil, nil
	snap.Statements = nil // rules read only the current interval's digests
	snap.InnoDB = s.slimInnoDBOf(snap.InnoDB)
	snap.Status = s.keptStatus(snap.Status)
	if f.Rates != nil {
		r := *f.Rates
		r.Status = nil
		f.Rates = &r
	}
	f.Snapshot = &snap
	window[i] = &f
}

func (s *slimmer) keptStatus(all map[string]string) map[string]string {
	if all == nil {
		return nil
	}
	kept := make(map[string]string, len(s.status))
	for _, name := range s.status {
		if v, ok := all[name]; ok {
			kept[name] = v
		}
	}
	return kept
}

func (s *slimmer) slimInnoDBOf(in *snapshot.InnoDBStatus) *snapshot.InnoDBStatus {
	if in == nil || in.Raw == "" {
		return in
	}
	if in != s.fullInnoDB {
		c := *in
		c.Raw = ""
		s.fullInnoDB, s.slimInnoDB = in, &c
	}
	return s.slimInnoDB
}

// newSlimmer keeps what the analyzer asks for, at least the two newest frames
// whole (the engine compares them), and the whole window for an analyzer
// that does not say.
func newSlimmer(a Analyzer) slimmer {
	h, ok := a.(History)
	if !ok {
		return slimmer{keep: WindowSize}
	}
	return slimmer{keep: max(h.DetailFrames(), 2), status: h.KeptStatus()}
}
