package report

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// withQPS is a frame at sec with a Questions rate.
func withQPS(sec int, qps float64) *snapshot.Frame {
	fr := frame(sec)
	fr.Rates = &snapshot.Rates{Interval: 1, Status: map[string]float64{"Questions": qps}}
	return fr
}

// A gap in the source is a null in the series, never a line drawn across it;
// the findings become the bands, and the worst moment is the critical one.
func TestTimelineKeepsGapsAndBands(t *testing.T) {
	b := NewBuilder("t")
	for _, fr := range []*snapshot.Frame{withQPS(0, 10), withQPS(1, 20), withQPS(5, 30)} {
		b.Add(fr)
	}
	crit := frame(6, f("deadlock", snapshot.Critical, 6, "x"))
	crit.Rates = &snapshot.Rates{Interval: 1, Status: map[string]float64{"Questions": 40}}
	b.Add(crit)
	tl := b.Report().Timeline
	if tl == nil || tl.Step != 1 || tl.Points != 7 {
		t.Fatalf("timeline %+v, want 7 one-second points", tl)
	}
	var q *TimeSeries
	for i := range tl.Series {
		if tl.Series[i].Chart == "queries" {
			q = &tl.Series[i]
		}
	}
	if q == nil {
		t.Fatal("no queries series")
	}
	want := []float64{10, 20, -1, -1, -1, 30, 40}
	for i, w := range want {
		got := q.Values[i]
		if (w < 0) != (got == nil) || (got != nil && *got != w) {
			t.Errorf("point %d = %v, want %v (-1: null)", i, got, w)
		}
	}
	if len(tl.Bands) != 1 || tl.Bands[0].ID != "deadlock" || !tl.Worst.Equal(crit.Time()) {
		t.Errorf("bands %+v worst %v, want the deadlock at %v", tl.Bands, tl.Worst, crit.Time())
	}
}

// A long source is drawn in wider steps, each the mean of its samples.
func TestTimelineBucketsLongSources(t *testing.T) {
	b := NewBuilder("t")
	for s := 0; s < 3*maxPoints; s++ {
		b.Add(withQPS(s, float64(s%3)))
	}
	tl := b.Report().Timeline
	if tl.Step != 3 || tl.Points != maxPoints {
		t.Fatalf("step %v points %d, want 3 s and %d", tl.Step, tl.Points, maxPoints)
	}
	for _, s := range tl.Series {
		if s.Chart == "queries" && (s.Values[0] == nil || *s.Values[0] != 1) {
			t.Errorf("first step %v, want the mean 1", s.Values[0])
		}
	}
}
