package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A scan short enough to slip between samples on a busy machine (a 600,000-row
// MyISAM UPDATE takes tens of milliseconds) is caught in one sample of
// fifteen, too few for the sighting paths. The server's counters see every
// run: when the only UPDATE/DELETE seen in the window has a full-scan plan,
// the statement counters say writes keep coming, and Handler_read_rnd_next
// reads the plan's rows for each of them, those reads are its runs. Raised
// only while others queue on a table or query-cache lock (the harm), so a
// scanning batch job on a quiet table stays the long-run rule's business.

// countedScan is the counters' proof for t, or "" when they do not give one.
func countedScan(w *window, c *Config, frames []*snapshot.Frame, tallies map[string]*fpTally, t *fpTally) string {
	if c.FullScanCountedShare <= 0 || t.sightings == 0 || !onlyScanningWrite(tallies, t) {
		return ""
	}
	_, _, rows := planFullScan(t.explain)
	if rows < c.FullScanRecurMinRows || !writesNow(w) {
		return ""
	}
	writes, ok1 := windowRate(frames, "Com_update", "Com_delete")
	scans, ok2 := windowRate(frames, "Handler_read_rnd_next")
	if !ok1 || !ok2 || writes < c.FullScanCountedMinWrites || scans < c.FullScanCountedShare*float64(rows)*writes {
		return ""
	}
	if queueSamples(w, frames) < c.FullScanRecurBlocked {
		return ""
	}
	return fmt.Sprintf("  counters over the window: %s UPDATE/DELETE/s × ~%s rows by the plan; Handler_read_rnd_next "+
		"%s rows/s: the runs between samples read that much", fmtRate(writes), fmtCount(rows), fmtRate(scans))
}

// onlyScanningWrite reports whether t is the one write fingerprint in the
// window whose plan scans a whole table: the counters cannot split reads
// between two.
func onlyScanningWrite(tallies map[string]*fpTally, t *fpTally) bool {
	for _, o := range tallies {
		if o == t {
			continue
		}
		if _, proof, _ := planFullScan(o.explain); proof != "" {
			return false
		}
	}
	return true
}

// writesNow: UPDATE/DELETE statements ran this interval, so the scans go on.
func writesNow(w *window) bool {
	u, ok1 := w.rate("Com_update")
	d, ok2 := w.rate("Com_delete")
	return (ok1 || ok2) && u+d > 0
}

// windowRate is the summed counters' mean rate from the window's first frame
// to its last; not ok without two frames holding one of them, or across a
// restart.
func windowRate(frames []*snapshot.Frame, names ...string) (float64, bool) {
	if len(frames) < 2 {
		return 0, false
	}
	a, b := frames[0].Snapshot, frames[len(frames)-1].Snapshot
	span := b.Time.Sub(a.Time).Seconds()
	if span <= 0 {
		return 0, false
	}
	var sum float64
	read := false
	for _, n := range names {
		x, ok1 := a.StatusFloat(n)
		y, ok2 := b.StatusFloat(n)
		if !ok1 || !ok2 {
			continue // a counter this server or source lacks adds nothing
		}
		if y < x {
			return 0, false
		}
		sum, read = sum+y-x, true
	}
	return sum / span, read
}

// queueSamples counts the window's samples with threads queued on a table or
// query-cache lock.
func queueSamples(w *window, frames []*snapshot.Frame) int {
	n := 0
	for _, f := range frames {
		if queuedIn(w, f) {
			n++
		}
	}
	return n
}
