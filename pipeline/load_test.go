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
