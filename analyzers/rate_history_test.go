package analyzers

import (
	"reflect"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording/importers"
	"github.com/mytop-go/mytop-go/snapshot"
)

// fullRates hides the Engine's RateHistory, so the pipeline keeps every
// rate of the detail frames as it did before thinning.
// It forwards only what pipeline.History asks (embedding would promote the
// RateHistory methods too).
type fullRates struct{ e *Engine }

func (f fullRates) Evaluate(w []*snapshot.Frame) ([]snapshot.Finding, map[string]string) {
	return f.e.Evaluate(w)
}
func (f fullRates) DetailFrames() int    { return f.e.DetailFrames() }
func (f fullRates) KeptStatus() []string { return f.e.KeptStatus() }

var (
	_ pipeline.RateHistory = (*Engine)(nil)
	_ pipeline.LoadHistory = (*Engine)(nil)
)

// noSlimming hides the Engine's History too: the pipeline keeps every frame
// whole, as the reference for what slimming may not change.
type noSlimming struct{ e *Engine }

func (f noSlimming) Evaluate(w []*snapshot.Frame) ([]snapshot.Finding, map[string]string) {
	return f.e.Evaluate(w)
}

// Thinning older frames to KeptRates and DetailStatus changes no finding: the
// rules read no other rate or status value from a frame before the newest
// RateFrames. Nor does the rest of the slimming (against a window kept whole). Checked over real
// captures (a table-lock and buffer-pool incident, pt-stalk runs, mysqladmin
// -r output).
func TestThinnedRatesSameFindings(t *testing.T) {
	sources := []string{"testdata/tablelock-bpmiss", "../recording/importers/testdata/ptstalk",
		"../recording/importers/testdata/ptstalk-lockwaits", "../recording/importers/testdata/mysqladmin-ext-i1-r.txt",
		"../recording/importers/testdata/shell-loops"}
	thinned, raised := 0, 0
	for _, src := range sources {
		capture, err := importers.Import(src, importers.Options{Location: time.UTC})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for _, sess := range capture.Sessions {
			thin := pipeline.NewBuilder("REPLAY", NewEngine(DefaultConfig()))
			full := pipeline.NewBuilder("REPLAY", fullRates{NewEngine(DefaultConfig())})
			whole := pipeline.NewBuilder("REPLAY", noSlimming{NewEngine(DefaultConfig())})
			for _, s := range sess.Snapshots {
				a, b, c := thin.Add(s), full.Add(s), whole.Add(s)
				raised += len(a.Findings)
				if !reflect.DeepEqual(findingKeys(a.Findings), findingKeys(c.Findings)) || !reflect.DeepEqual(a.NotApplicable, c.NotApplicable) {
					t.Fatalf("%s at %v: slimmed window %v, whole window %v", src, s.Time, findingKeys(a.Findings), findingKeys(c.Findings))
				}
				if !reflect.DeepEqual(findingEvidence(a.Findings), findingEvidence(c.Findings)) {
					t.Fatalf("%s at %v: slimmed window's evidence %q, whole window's %q", src, s.Time, findingEvidence(a.Findings), findingEvidence(c.Findings))
				}
				if !reflect.DeepEqual(findingKeys(a.Findings), findingKeys(b.Findings)) || !reflect.DeepEqual(a.NotApplicable, b.NotApplicable) {
					t.Fatalf("%s at %v: thinned rates %v, whole rates %v", src, s.Time, findingKeys(a.Findings), findingKeys(b.Findings))
				}
			}
			if fw := full.Window(); len(fw) > 4 && fw[len(fw)-4].Snapshot.Status != nil && len(fw[len(fw)-4].Snapshot.Status) < 50 {
				t.Fatalf("%s: the whole-rates builder thinned its frames too", src)
			}
			w := thin.Window()
			if old := len(w) - 4; old >= 0 && w[old].Rates != nil && w[old].Rates.Status != nil {
				if s := w[old].Snapshot; len(w[old].Rates.Status) > 1 || s.Status != nil || s.Kept.Len() > len(NewEngine(DefaultConfig()).DetailStatus()) {
					t.Errorf("%s: an older frame kept %d rates, %d status values and a status map of %d", src, len(w[old].Rates.Status), s.Kept.Len(), len(s.Status))
				}
				thinned++
			}
		}
	}
	if raised == 0 {
		t.Error("no finding raised: the comparison proves nothing")
	}
	if thinned == 0 {
		t.Error("no capture was long enough to thin a frame's rates")
	}
}

func findingKeys(fs []snapshot.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.ID+"/"+f.Severity.String()+"/"+f.Title)
	}
	return out
}

func findingEvidence(fs []snapshot.Finding) [][]string {
	var out [][]string
	for _, f := range fs {
		out = append(out, f.Evidence)
	}
	return out
}
