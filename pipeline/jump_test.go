package pipeline

import (
	"context"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// jumpingSource is a slice source that reports a jump before chosen indexes.
type jumpingSource struct {
	*SliceSource
	at   map[int]bool
	next int
}

func (s *jumpingSource) Next(ctx context.Context) (*snapshot.Snapshot, error) {
	s.next++
	return s.SliceSource.Next(ctx)
}

func (s *jumpingSource) Jumped() bool { return s.at[s.next-1] }

func TestRunResetsTheBuilderAfterAJump(t *testing.T) {
	src := &jumpingSource{SliceSource: NewSliceSource(series(6)), at: map[int]bool{3: true}}
	var got []*snapshot.Frame
	err := Run(context.Background(), src, NewBuilder(snapshot.ModeReplay, countingAnalyzer{}), func(f *snapshot.Frame) error {
		got = append(got, f)
		return nil
	})
	if err != nil || len(got) != 6 {
		t.Fatalf("%d frames, %v", len(got), err)
	}
	tests := []struct {
		i         int
		seq       int
		rates     bool
		findTitle string
	}{
		{2, 2, true, "3 frames, last seq 2"},
		{3, 0, false, "1 frames, last seq 0"}, // the jump: no rate across it, an empty window
		{4, 1, true, "2 frames, last seq 1"},
	}
	for _, tt := range tests {
		f := got[tt.i]
		if f.Seq != tt.seq || (f.Rates != nil) != tt.rates || f.Findings[0].Title != tt.findTitle {
			t.Errorf("frame %d: seq %d, rates %v, %q; want seq %d, rates %v, %q",
				tt.i, f.Seq, f.Rates != nil, f.Findings[0].Title, tt.seq, tt.rates, tt.findTitle)
		}
	}
}
