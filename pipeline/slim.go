package pipeline

import "github.com/mytop-go/mytop-go/snapshot"

// history is implemented by analyzers that say how much of older frames they
// read. The newest DetailFrames keep everything; older window frames keep
// times, server identity, collector states, parsed InnoDB and host figures,
// and of the status counters only KeptStatus, as Snapshot.Kept in place of
// the status map. At 5,000 connections a processlist is about 1 MB, and 300
// of them are what made the monitor's memory grow for five minutes; the
// status and rate maps are another 50 KB a frame that rules read only for
// the current one.
type history interface {
	DetailFrames() int
	KeptStatus() []string
}

// RateHistory is implemented by analyzers that read few status values and
// rates from frames before the newest RateFrames, though they read those
// frames' processlists: such frames keep only DetailStatus of their status
// map and KeptRates of their rate map. Both maps have some 600 names, and
// the detail frames (16 for the sighting window) kept them whole for the few
// rules that look back at a handful; with 100 servers in one `serve` that
// was over half of the heap.
type RateHistory interface {
	RateFrames() int
	KeptRates() []string
	DetailStatus() []string
}

// slimmer replaces window frames that fell behind the detail history with
// the thinned copies history describes.
// Consumers hold the original Frame, so a paused dashboard still shows the
// processlist of the frame it paused on.
type slimmer struct {
	keep   int
	status *snapshot.StatusKeeper
	// rateKeep newest frames keep their whole rate and status maps; older
	// ones only rates and detailStatus (0: all keep them until slimmed).
	rateKeep     int
	rates        []string
	detailStatus *snapshot.StatusKeeper
	// loadKeep newest frames keep their load (slim_load.go); older ones,
	// copies slimAt made, drop it.
	loadKeep int
	// InnoDB status is read every few ticks and shared by the snapshots in
	// between; its slim copy is shared the same way instead of made per frame.
	fullInnoDB, slimInnoDB *snapshot.InnoDBStatus
}

// slimAt slims window[len-1-keep], the frame that has just fallen behind,
// and thins the rates of window[len-1-rateKeep].
func (s *slimmer) slimAt(window []*snapshot.Frame) {
	s.thinRatesAt(window)
	s.dropLoadAt(window)
	i := len(window) - 1 - s.keep
	if i < 0 || window[i] == nil || window[i].Snapshot == nil {
		return
	}
	f := *window[i]
	snap := *f.Snapshot
	snap.Processlist, snap.Explains, snap.Threads = nil, nil, nil
	// Rules read the collectors' states of the current frame only, and the
	// engine keeps its own findings: a frame's state map and its findings'
	// outputs (not-applicable reasons, some 2 KB a frame) are left to the
	// consumers, which hold the original frame.
	snap.Collectors = nil
	f.Findings, f.NotApplicable = nil, nil
	snap.Statements = nil // rules read only the current interval's digests
	// The monitor's own counters are read as the change from the frame
	// before (tmp_disk_tables); a new map most ticks, 8 MB over 100 servers.
	snap.SelfStatus = nil
	snap.InnoDB = s.slimInnoDBOf(snap.InnoDB)
	snap.Kept, snap.Status = s.status.Keep(&snap), nil
	if f.Rates != nil {
		r := *f.Rates
		// Host and per-thread rates, like the status rates, are read from
		// the current frame only.
		r.Status, r.Host, r.Threads = nil, nil, nil
		f.Rates = &r
	}
	f.Snapshot = &snap
	window[i] = &f
}

// thinRatesAt keeps only the rates and status values older frames are read
// for in the frame that has just fallen behind the newest rateKeep. A nil
// rate map (a restart, which rules look for) stays nil.
func (s *slimmer) thinRatesAt(window []*snapshot.Frame) {
	i := len(window) - 1 - s.rateKeep
	if s.rateKeep <= 0 || s.rateKeep >= s.keep || i < 0 || window[i] == nil || window[i].Snapshot == nil {
		return
	}
	f := *window[i]
	if f.Rates != nil && f.Rates.Status != nil {
		r := *f.Rates
		kept := make(map[string]float64, len(s.rates))
		for _, name := range s.rates {
			if v, ok := r.Status[name]; ok {
				kept[name] = v
			}
		}
		r.Status = kept
		f.Rates = &r
	}
	if f.Snapshot.Status != nil {
		snap := *f.Snapshot
		snap.Kept, snap.Status = s.detailStatus.Keep(&snap), nil
		f.Snapshot = &snap
	}
	window[i] = &f
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
	h, ok := a.(history)
	if !ok {
		return slimmer{keep: windowSize}
	}
	sl := slimmer{keep: max(h.DetailFrames(), 2), status: snapshot.NewStatusKeeper(h.KeptStatus()), loadKeep: loadKeepOf(a)}
	if r, ok := a.(RateHistory); ok {
		sl.rateKeep, sl.rates = max(r.RateFrames(), 2), r.KeptRates()
		sl.detailStatus = snapshot.NewStatusKeeper(r.DetailStatus())
	}
	return sl
}
