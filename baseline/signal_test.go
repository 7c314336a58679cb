package baseline

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMedianBySelection: the selection gives the sorted median, odd and
// even counts, with ties.
func TestMedianBySelection(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 200; n++ {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(rng.IntN(20))
		}
		sorted := slices.Clone(vals)
		slices.Sort(sorted)
		want := sorted[n/2]
		if n%2 == 0 {
			want = (sorted[n/2-1] + sorted[n/2]) / 2
		}
		if got := median(vals); got != want {
			t.Fatalf("n=%d: median %v, want %v", n, got, want)
		}
	}
}
