package ui

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestAnySizeAnyFrameDraws guards against panics on tiny terminals and on
// frames that carry almost nothing (an import of a bare processlist log).
func TestAnySizeAnyFrameDraws(t *testing.T) {
	bare := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: t0}}
	onlyProcs := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: t0, Processlist: incidentProcs()}, Findings: []snapshot.Finding{{ID: "x", Title: "no onset"}}}
	frames := map[string]*snapshot.Frame{"bare": bare, "processlist only": onlyProcs, "incident": incidentFrame()}
	sizes := [][2]int{{1, 1}, {10, 3}, {40, 10}, {80, 24}, {121, 36}, {300, 100}}
	for name, f := range frames {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s %dx%d", name, sz[0], sz[1]), func(t *testing.T) {
				d := New(Options{Player: &fakePlayer{from: t0, to: t0, at: t0}})
				d.Update(f)
				screenOf(d, sz[0], sz[1])
				press(d, '?')
				screenOf(d, sz[0], sz[1])
			})
		}
	}
}

func TestBareFrameSaysNA(t *testing.T) {
	f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: t0, Processlist: incidentProcs()},
		Findings: []snapshot.Finding{{ID: "threads_running_high", Title: "38 threads running"}}}
	s := screenOf(func() *Dashboard { d := New(Options{}); d.Update(f); return d }(), 200, 50)
	mustContain(t, s, "QPS n/a", "thr n/a", "n/a: no SHOW STATUS in this source",
		"n/a: no SHOW ENGINE INNODB STATUS in this source", "n/a: no host figures in this source",
		"INFO threads_running_high - 38 threads running", "slow n/a  CPU n/a")
}
