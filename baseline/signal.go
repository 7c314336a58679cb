package baseline

import (
	"math"
	"slices"
)

// direction is which way a signal's move matters.
type direction int8

const (
	up   direction = 1
	down direction = -1
	both direction = 0
)

// kind groups signals for the cause classes' signatures.
type kind uint8

// spec says how a signal is judged.
type spec struct {
	name string
	kind kind
	dir  direction
	// floor is the smallest move that counts, in the signal's unit: a rate
	// near zero moving x10 is noise.
	floor float64
	// zeroWhenAbsent: a frame without the signal counts 0 (a statement, a
	// user, a tool not running); else the frame says nothing of it.
	zeroWhenAbsent bool
	// unit is how the value is written in evidence.
	unit string
	// per is, for a ratio, the kind of its numerator: the ratio is out only
	// while that is out the same way. Rows read per query rising while
	// the rows read a second do not is the queries falling (a lock convoy,
	// a slow link) under a reader that does not (a monitoring agent's
	// scans of the information schema): no statement read more.
	per kind
}

// nBuckets of bucketSpan are the longest normal kept: 30 minutes.
const (
	nBuckets   = 180
	bucketSpan = 10 // seconds
)

// signal is one signal's baseline: its bucket means, the statistics of the
// admitted ones, and where its recent value stands.
type signal struct {
	spec
	ring [nBuckets]float32 // NaN: no value in that bucket
	// highs and lows are the highest and lowest recent (short-window) value
	// in each bucket: how far the normal's own bursts go, which a bucket's
	// mean dilutes.
	highs, lows [nBuckets]float32
	// acc and accW are the current bucket's time-weighted sum, accHi and
	// accLo its recent values' extremes (NaN: none yet).
	acc, accW    float64
	accHi, accLo float64
	// inBand: the signal was in its band (or had no value to judge) at
	// some frame of the current bucket, as judgeSignals found it. A bucket it was out of band throughout does not
	// widen the burst envelope with its extreme (closeBucket).
	inBand bool
	// med and spread are the statistics of the admitted buckets, n of them;
	// hi and lo the normal's burst envelope (the 95th percentile of the
	// buckets' highs, the 5th of their lows).
	med, spread float64
	hi, lo      float64
	n           int
	// peak is the largest bucket mean held, for evicting the least used
	// mix signal.
	peak float32
	// The recent value and its verdict.
	cur       float64
	curOK     bool
	out       direction // 0: in band
	outStart  float64   // unix seconds the departure started
	lastValue float64
}

func newSignal(s spec) *signal {
	g := &signal{spec: s}
	fill := float32(math.NaN())
	if s.zeroWhenAbsent {
		fill = 0
	}
	ext := float32(math.NaN())
	if s.zeroWhenAbsent {
		ext = 0 // absent through the baseline: 0 at its highest too
	}
	for i := range g.ring {
		g.ring[i], g.highs[i], g.lows[i] = fill, ext, ext
	}
	g.accHi, g.accLo = math.NaN(), math.NaN()
	return g
}

// unknownHistory empties the rings of a signal that counts 0 when absent
// but whose past is not known (mix_seen.go): it is judged once buckets
// with its values are admitted.
func (g *signal) unknownHistory() {
	nan := float32(math.NaN())
	for i := range g.ring {
		g.ring[i], g.highs[i], g.lows[i] = nan, nan, nan
	}
}

// zOut is how many robust sigmas a recent value must move to be out of band;
// relFloor the share of the median it must move at least.
const (
	zOut     = 4.0
	relFloor = 0.25
)

// band returns the half-width of one robust sigma: the MAD scaled to a
// normal's sigma, never below the relative floor's quarter (so a flat signal
// still needs a real move).
func (g *signal) band() float64 {
	return max(1.4826*g.spread, relFloor/zOut*math.Abs(g.med), g.floor/zOut)
}

// judge says which way x stands outside the band, 0 inside.
func (g *signal) judge(x float64) direction {
	if g.n == 0 {
		return 0
	}
	d := x - g.med
	if math.Abs(d) < g.floor || math.Abs(d) < zOut*g.band() {
		return 0
	}
	dir := up
	if d < 0 {
		dir = down
	}
	if g.dir != both && g.dir != dir {
		return 0
	}
	// A server whose normal has bursts (a report every minute, a purge) is
	// not news when it bursts as far as it usually does.
	if (dir == up && x <= g.hi+g.band()) || (dir == down && x >= g.lo-g.band()) {
		return 0
	}
	return dir
}

// z is the robust z of x.
func (g *signal) z(x float64) float64 { return (x - g.med) / g.band() }

// restat recomputes the statistics from the admitted buckets (scratch is
// reused between signals).
func (g *signal) restat(admitted []int, scratch []float64) []float64 {
	vals := scratch[:0]
	var peak float32
	for _, i := range admitted {
		v := g.ring[i]
		if v != v { // NaN
			continue
		}
		vals = append(vals, float64(v))
		peak = max(peak, v)
	}
	g.peak = peak
	g.n = len(vals)
	if g.n == 0 {
		g.med, g.spread = 0, 0
		return vals
	}
	g.med = median(vals)
	for i, v := range vals {
		vals[i] = math.Abs(v - g.med)
	}
	g.spread = median(vals)
	g.hi = quantileOf(g.highs[:], admitted, 0.95, g.med, vals[:0])
	g.lo = quantileOf(g.lows[:], admitted, 0.05, g.med, vals[:0])
	return vals
}

// quantileOf is the q quantile of the admitted buckets of ring (def when
// none has a value), selected in scratch.
func quantileOf(ring []float32, admitted []int, q, def float64, scratch []float64) float64 {
	vals := scratch
	for _, i := range admitted {
		if v := ring[i]; v == v {
			vals = append(vals, float64(v))
		}
	}
	if len(vals) == 0 {
		return def
	}
	return nth(vals, min(int(q*float64(len(vals))), len(vals)-1))
}

// median reorders vals in place. It selects rather than sorts: this runs
// for every signal of every server each time a bucket closes, and a
// selection is linear.
func median(vals []float64) float64 {
	n := len(vals)
	hi := nth(vals, n/2)
	if n%2 == 1 {
		return hi
	}
	return (slices.Max(vals[:n/2]) + hi) / 2
}

// nth puts the k-th smallest value at vals[k], the smaller ones before it,
// and returns it (Hoare's selection, middle pivot).
func nth(vals []float64, k int) float64 {
	lo, hi := 0, len(vals)-1
	for lo < hi {
		pivot := vals[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for vals[i] < pivot {
				i++
			}
			for vals[j] > pivot {
				j--
			}
			if i <= j {
				vals[i], vals[j] = vals[j], vals[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return vals[k]
		}
	}
	return vals[k]
}
