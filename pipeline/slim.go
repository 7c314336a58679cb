package pipeline

import "github.com/mytop-go/mytop-go/snapshot"

// ThreadHistory is implemented by analyzers that look at per-thread parts
// (processlist, EXPLAIN plans, raw InnoDB text) of only the last few frames.
// The Builder keeps those parts for that many frames and drops them from
// older window frames: at 5,000 connections a processlist is about 1 MB, and
// 300 of them are what made the monitor's memory grow for five minutes.
type ThreadHistory interface {
	ThreadFrames() int
}

// slimmer replaces window frames that fell behind the thread history with
// copies that keep counters, times and parsed figures but no thread rows.
// Consumers hold the original Frame, so a paused dashboard still shows the
// processlist of the frame it paused on.
type slimmer struct {
	keep int
	// InnoDB status is read every few ticks and shared by the snapshots in
	// between; its slim copy is shared the same way instead of made per frame.
	fullInnoDB, slimInnoDB *snapshot.InnoDBStatus
}

// slimAt slims window[len-1-keep], the frame that has just fallen behind.
func (s *slimmer) slimAt(window []*snapshot.Frame) {
	i := len(window) - 1 - s.keep
	if s.keep <= 0 || i < 0 || window[i] == nil || window[i].Snapshot == nil {
		return
	}
	f := *window[i]
	snap := *f.Snapshot
	snap.Processlist, snap.Explains = nil, nil
	snap.InnoDB = s.slimInnoDBOf(snap.InnoDB)
	f.Snapshot = &snap
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

// threadFrames is how many newest frames keep their thread rows: what the
// analyzer asks for, at least the two the engine compares, and the whole
// window for an analyzer that does not say.
func threadFrames(a Analyzer) int {
	h, ok := a.(ThreadHistory)
	if !ok {
		return WindowSize
	}
	return max(h.ThreadFrames(), 2)
}
