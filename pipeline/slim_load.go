package pipeline

import "github.com/mytop-go/mytop-go/snapshot"

// LoadHistory is implemented by analyzers that read the database load
// (Frame.Load) of only the newest LoadFrames frames. Older frames of the
// window drop it: a busy server's load names its biggest statements, users
// and tables, some 0.5 KB a frame that nothing reads past the last minute.
type LoadHistory interface {
	LoadFrames() int
}

// loadKeepOf is how many newest frames keep their load: all for an analyzer
// that does not say.
func loadKeepOf(a Analyzer) int {
	if h, ok := a.(LoadHistory); ok {
		return max(h.LoadFrames(), 1)
	}
	return windowSize
}

// dropLoadAt drops the load of the frame that has just fallen behind the
// newest loadKeep. Only a frame slimAt already copied is changed: consumers
// hold the original, with its load.
func (s *slimmer) dropLoadAt(window []*snapshot.Frame) {
	i := len(window) - 1 - s.loadKeep
	if s.loadKeep <= s.keep || i < 0 || window[i] == nil || window[i].Snapshot == nil {
		return
	}
	window[i].Load = nil
}
