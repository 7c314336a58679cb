package ui

import (
	"math"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// ring keeps the last cap values; it never grows after construction.
type ring struct {
	vals  []float64
	start int
	n     int
}

func newRing(capacity int) *ring { return &ring{vals: make([]float64, capacity)} }

func (r *ring) push(v float64) {
	if len(r.vals) == 0 {
		return
	}
	i := (r.start + r.n) % len(r.vals)
	r.vals[i] = v
	if r.n < len(r.vals) {
		r.n++
	} else {
		r.start = (r.start + 1) % len(r.vals)
	}
}

// last returns up to n most recent values, oldest first.
func (r *ring) last(n int) []float64 {
	n = min(n, r.n)
	out := make([]float64, n)
	for i := range n {
		out[i] = r.vals[(r.start+r.n-n+i)%len(r.vals)]
	}
	return out
}

var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// sparkline draws vals scaled from 0 to their maximum; unknown values (NaN)
// are blanks, so a gap in the data is not drawn as a quiet moment.
func sparkline(vals []float64) string {
	peak := 0.0
	for _, v := range vals {
		if !math.IsNaN(v) && v > peak {
			peak = v
		}
	}
	var b strings.Builder
	for _, v := range vals {
		switch {
		case math.IsNaN(v):
			b.WriteByte(' ')
		case peak <= 0:
			b.WriteRune(sparkRunes[0])
		default:
			i := int(v / peak * float64(len(sparkRunes)-1))
			b.WriteRune(sparkRunes[max(0, min(i, len(sparkRunes)-1))])
		}
	}
	return b.String()
}

// withSpark follows text with a sparkline filling the rest of width, capped
// so a wide panel does not turn into a chart.
func withSpark(text string, r *ring, width int) string {
	room := min(width-tview.TaggedStringWidth(text)-2, 40)
	if room < 4 {
		return text
	}
	return text + "  " + sparkline(r.last(room))
}

// history is what the sparklines remember of past frames.
type history struct {
	qps, running, bpMiss, cpu *ring
}

func newHistory(capacity int) *history {
	return &history{qps: newRing(capacity), running: newRing(capacity), bpMiss: newRing(capacity), cpu: newRing(capacity)}
}

func (h *history) push(f *snapshot.Frame) {
	h.qps.push(valueOrNaN(qps(f)))
	_, run, ok := threads(f.Snapshot)
	h.running.push(valueOrNaN(float64(run), ok))
	h.bpMiss.push(valueOrNaN(bpMissPercent(f)))
	h.cpu.push(cpuBusy(f))
}

func valueOrNaN(v float64, ok bool) float64 {
	if !ok {
		return math.NaN()
	}
	return v
}
