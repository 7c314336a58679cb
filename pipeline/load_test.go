package pipeline

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// historyOf1 keeps only the newest frame whole, so slimming is exercised.
type historyOf1 struct{ countingAnalyzer }

func (historyOf1) DetailFrames() int    { return 1 }
func (historyOf1) KeptStatus() []string { return nil }

// TestBuilderMeasuresLoadThatOutlivesSlimming: every frame carries its load,
// and frames slimmed of their processlist keep it, so rules and the load
// view read minutes of load from the window.
func TestBuilderMeasuresLoadThatOutlivesSlimming(t *testing.T) {
	b := NewBuilder(snapshot.ModeReplay, historyOf1{})
	for i, s := range series(10) {
		s.Processlist = []snapshot.Process{
			{ID: 1, Command: "Query", State: "User sleep", Info: "SELECT SLEEP(10)"},
			{ID: 2, Command: "Sleep"},
		}
		f := b.Add(s)
		if f.Load == nil || f.Load.Active != 1 || f.Load.Classes[snapshot.ClassSleep] != 1 {
			t.Fatalf("frame %d: load %+v", i, f.Load)
		}
	}
	w := b.Window()
	if old := w[0]; old.Snapshot.Processlist != nil || old.Load == nil || old.Load.Active != 1 {
		t.Errorf("slimmed frame: processlist %v, load %+v", old.Snapshot.Processlist, old.Load)
	}
}

// loadOf3 reads the load of the newest 3 frames and keeps 1 frame whole.
type loadOf3 struct{ historyOf1 }

func (loadOf3) LoadFrames() int { return 3 }

// Frames past the analyzer's load history drop their load; the frames handed
// to consumers keep theirs.
func TestBuilderDropsLoadPastTheAnalyzersLoadHistory(t *testing.T) {
	b := NewBuilder(snapshot.ModeReplay, loadOf3{})
	var emitted []*snapshot.Frame
	for _, s := range series(10) {
		s.Processlist = []snapshot.Process{{ID: 1, Command: "Query", State: "User sleep", Info: "SELECT SLEEP(10)"}}
		emitted = append(emitted, b.Add(s))
	}
	w := b.Window()
	for i, f := range w {
		if kept := i >= len(w)-3; (f.Load != nil) != kept {
			t.Errorf("frame %d of %d: load %+v, want it kept %v", i, len(w), f.Load, kept)
		}
	}
	for _, f := range emitted {
		if f.Load == nil {
			t.Fatalf("frame %d handed to consumers lost its load", f.Seq)
		}
	}
}
