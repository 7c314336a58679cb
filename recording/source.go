package recording

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// FrameSource reads a recording's frames in order as a pipeline.Source.
type FrameSource struct {
	r    *Reader
	next int
	to   int64
	// OnSkip is told about each damaged frame skipped; nil ignores them.
	OnSkip func(error)
}

// Source returns the frames from `from` to `to` (inclusive; zero times mean
// the start and end of the recording) as a pipeline.Source. Closing the
// source closes the Reader.
func (r *Reader) Source(from, to time.Time) *FrameSource {
	s := &FrameSource{r: r, to: -1}
	if !from.IsZero() {
		r.mu.Lock()
		s.next = r.seekAtOrAfter(from.UnixNano())
		r.mu.Unlock()
	}
	if !to.IsZero() {
		s.to = to.UnixNano()
	}
	return s
}

// seekAtOrAfter returns the first frame at or after ts.
func (r *Reader) seekAtOrAfter(ts int64) int {
	i := r.seek(ts)
	if i >= 0 && r.index[i].ts < ts {
		i++
	}
	return max(i, 0)
}

// Next returns the next frame's Snapshot, io.EOF at the end. Damaged frames
// are reported to OnSkip and skipped.
func (s *FrameSource) Next(ctx context.Context) (*snapshot.Snapshot, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.next >= s.r.Len() {
			return nil, io.EOF
		}
		snap, err := s.r.Snapshot(s.next)
		s.next++
		var fe *frameError
		if errors.As(err, &fe) {
			if s.OnSkip != nil {
				s.OnSkip(err)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if s.to >= 0 && snap.Time.UnixNano() > s.to {
			return nil, io.EOF
		}
		return snap, nil
	}
}

// Close closes the underlying Reader.
func (s *FrameSource) Close() error { return s.r.Close() }

var _ pipeline.Source = (*FrameSource)(nil)
