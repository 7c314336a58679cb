package recording

import "testing"

func TestRoughlyKeepsTwoOrThreeFiguresAndWholeNumbersWhole(t *testing.T) {
	for _, c := range []struct {
		in   float64
		fine bool
		want float64
	}{
		{6030.7473, false, 6031}, {99.4949, false, 99}, {-12.5, false, -13},
		{1.50625, false, 1.5}, {2.00442, false, 2}, {0.04, false, 0},
		{0.0371, true, 0.04}, {12.3, true, 12},
	} {
		if got := roughly(c.in, c.fine); got != c.want {
			t.Errorf("roughly(%v, %v) = %v, want %v", c.in, c.fine, got, c.want)
		}
	}
}
