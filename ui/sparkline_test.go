package ui

import (
	"math"
	"slices"
	"testing"
)

func TestRingIsBounded(t *testing.T) {
	r := newRing(3)
	for i := range 10 {
		r.push(float64(i))
	}
	if got := r.last(10); !slices.Equal(got, []float64{7, 8, 9}) {
		t.Errorf("last = %v", got)
	}
	if len(r.vals) != 3 {
		t.Errorf("ring grew to %d", len(r.vals))
	}
	if got := r.last(2); !slices.Equal(got, []float64{8, 9}) {
		t.Errorf("last(2) = %v", got)
	}
}

func TestSparkline(t *testing.T) {
	if got := sparkline([]float64{0, 1, 2, 3, 4, 5, 6, 7}); got != "▁▂▃▄▅▆▇█" {
		t.Errorf("ramp = %q", got)
	}
	if got := sparkline([]float64{5, math.NaN(), 5}); got != "█ █" {
		t.Errorf("gap = %q", got)
	}
	if got := sparkline([]float64{0, 0}); got != "▁▁" {
		t.Errorf("zeros = %q", got)
	}
}
