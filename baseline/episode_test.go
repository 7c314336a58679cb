package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Causes confirmed within a wave of each other rank by how far they moved;
// one confirmed a wave later ranks after, however far it moved and however
// early its departure dates it: what changed first stays first.
func TestOnsetsRankByWaveOfConfirmation(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 17, 59, 33, 0, time.UTC)
	at := func(s float64) float64 { return float64(t0.Unix()) + s }
	state := func(cause string, confirmed, dated, score float64) *onsetState {
		return &onsetState{confirmed: at(confirmed),
			onset: snapshot.Onset{Cause: cause, At: t0.Add(time.Duration(dated * float64(time.Second))), Score: score}}
	}
	for _, c := range []struct {
		name   string
		states []*onsetState
		want   []string
	}{
		{"a convoy's aftermath, dated back to the convoy's start", []*onsetState{
			state(snapshot.CauseLocks, 5, 0, 8), state(snapshot.CauseWorkload, 35, 0, 30)},
			[]string{snapshot.CauseLocks, snapshot.CauseWorkload}},
		{"two causes of one start: the further moved first", []*onsetState{
			state(snapshot.CauseLocks, 5, 0, 8), state(snapshot.CauseWorkload, 9, 1, 30)},
			[]string{snapshot.CauseWorkload, snapshot.CauseLocks}},
		{"equal moves: the earlier dated first", []*onsetState{
			state(snapshot.CauseWorkload, 6, 2, 8), state(snapshot.CauseLocks, 5, 0, 8)},
			[]string{snapshot.CauseLocks, snapshot.CauseWorkload}},
		{"three waves", []*onsetState{
			state(snapshot.CauseDisk, 40, 30, 50), state(snapshot.CauseCPUOutside, 5, 0, 2),
			state(snapshot.CauseStatement, 20, 18, 9)},
			[]string{snapshot.CauseCPUOutside, snapshot.CauseStatement, snapshot.CauseDisk}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &Tracker{ep: &episode{onsets: c.states}}
			got := tr.onsets()
			for i, o := range got {
				if o.Cause != c.want[i] || o.Rank != i+1 {
					t.Errorf("rank %d: %s (rank %d), want %s", i+1, o.Cause, o.Rank, c.want[i])
				}
			}
		})
	}
}
