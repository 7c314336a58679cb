package baseline

import (
	"slices"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// presence is where one finding ID stood among the buckets: the bucket it
// was last seen in, and per ring slot the bucket it was seen in there.
type presence struct {
	seen  [nBuckets]int64
	cur   int64 // the bucket being filled when it was last seen
	count int   // admitted buckets of the window it stood in
	first int64 // the oldest of them
}

// markFindings notes each finding as seen in the current bucket, marks as
// chronic those that stood through enough of the baseline (how this server
// runs, not news), and orders the new ones first, each group as the rules
// ordered it.
func (t *Tracker) markFindings(f *snapshot.Frame) {
	for i := range f.Findings {
		fd := &f.Findings[i]
		p := t.presence[fd.ID]
		if p == nil {
			p = &presence{}
			t.presence[fd.ID] = p
		}
		p.cur = t.bucket
		admitted := len(t.admittedIdx)
		if t.ready && admitted > 0 && float64(p.count) >= t.cfg.ChronicShare*float64(admitted) {
			fd.Chronic = true
			fd.ChronicSince = time.Unix(p.first*bucketSpan, 0).In(f.Time().Location())
		}
	}
	slices.SortStableFunc(f.Findings, func(a, b snapshot.Finding) int {
		switch {
		case a.Chronic == b.Chronic:
			return 0
		case !a.Chronic:
			return -1
		}
		return 1
	})
}

// presenceClose records which findings stood in the bucket closing in slot
// s, and recounts each one's admitted buckets in the window.
func (t *Tracker) presenceClose(s int) {
	for id, p := range t.presence {
		if p.cur == t.bucket {
			p.seen[s] = t.bucket
		}
		p.count, p.first = 0, 0
		for i := range nBuckets {
			if p.seen[i] == t.stamps[i] && t.stamps[i] > t.bucket-t.cfg.windowBuckets() && t.admitted[i] {
				p.count++
				if p.first == 0 || p.seen[i] < p.first {
					p.first = p.seen[i]
				}
			}
		}
		if p.count == 0 && p.cur < t.bucket-t.cfg.windowBuckets() {
			delete(t.presence, id)
		}
	}
}
