package baseline

import (
	"math"
	"time"
)

// bucketOf is the bucket a moment falls in: whole bucketSpans since the
// epoch, so live and replay cut the same buckets.
func bucketOf(t time.Time) int64 { return t.Unix() / bucketSpan }

// slot is where a bucket is kept in the rings.
func slot(b int64) int { return int(((b % nBuckets) + nBuckets) % nBuckets) }

// advance closes the current bucket when t falls in a later one: its means
// go into the rings, admitted unless tainted, the buckets skipped by a gap
// are emptied, and the statistics are recomputed.
func (t *Tracker) advance(at time.Time) {
	b := bucketOf(at)
	if b == t.bucket {
		return
	}
	if t.bucket != 0 && b > t.bucket {
		t.closeBucket()
		for skipped := t.bucket + 1; skipped < b && skipped-t.bucket <= nBuckets; skipped++ {
			t.emptySlot(slot(skipped))
		}
		t.restat(b)
	}
	t.bucket, t.tainted, t.filled = b, false, false
	for _, g := range t.sigs {
		g.acc, g.accW, g.accHi, g.accLo, g.inBand = 0, 0, math.NaN(), math.NaN(), false
	}
}

func (t *Tracker) closeBucket() {
	s := slot(t.bucket)
	if !t.filled {
		t.emptySlot(s) // a bucket no frame fell in says nothing
		return
	}
	t.stamps[s], t.admitted[s] = t.bucket, !t.tainted
	for _, g := range t.sigs {
		if g.accW > 0 {
			g.ring[s] = float32(g.acc / g.accW)
		} else {
			g.ring[s] = float32(math.NaN())
		}
		g.highs[s], g.lows[s] = float32(g.accHi), float32(g.accLo)
		if t.ready {
			g.holdBackExtreme(s)
		}
	}
	t.presenceClose(s)
}

// holdBackExtreme keeps out of the burst envelope the extreme of a bucket
// the signal stood out of band throughout, on the side it stood: a
// departure not yet corroborated (a hog's own measured share, waiting
// for an effect beside it) would otherwise become its own envelope within
// two buckets and go back in band while it lasts. Its mean still enters
// the median, which learns a lasting level in half the window.
func (g *signal) holdBackExtreme(s int) {
	if g.inBand {
		return
	}
	switch g.out {
	case up:
		g.highs[s] = float32(math.NaN())
	case down:
		g.lows[s] = float32(math.NaN())
	}
}

func (t *Tracker) emptySlot(s int) {
	t.stamps[s], t.admitted[s] = -1, false
}

// restat recomputes every signal's statistics from the admitted buckets of
// the window before bucket b.
func (t *Tracker) restat(b int64) {
	t.admittedIdx = t.admittedIdx[:0]
	oldest := int64(0)
	for s := range nBuckets {
		st := t.stamps[s]
		if st >= b-t.cfg.windowBuckets() && st < b && t.admitted[s] {
			t.admittedIdx = append(t.admittedIdx, s)
			if oldest == 0 || st < oldest {
				oldest = st
			}
		}
	}
	for _, g := range t.sigs {
		t.scratch = g.restat(t.admittedIdx, t.scratch)
	}
	t.history = time.Duration(len(t.admittedIdx)) * bucketSpan * time.Second
	t.oldest = time.Time{}
	if oldest > 0 {
		t.oldest = time.Unix(oldest*bucketSpan, 0)
	}
	t.ready = t.history >= t.cfg.WarmUp
	at := time.Unix(b*bucketSpan, 0).In(t.loc)
	t.noteHour(at)
	t.fromHour(at)
}

// accumulate folds one frame's values into the current bucket, each weighed
// by the seconds the frame stands for.
func (t *Tracker) accumulate(vals []float64, span float64) {
	t.filled = true
	for i, v := range vals {
		if v != v {
			continue
		}
		g := t.sigs[i]
		g.acc += v * span
		g.accW += span
	}
}
