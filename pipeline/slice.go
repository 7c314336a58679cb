package pipeline

import (
	"context"
	"io"

	"github.com/mytop-go/mytop-go/snapshot"
)

// SliceSource yields snapshots held in memory, e.g. an imported capture.
type SliceSource struct {
	snaps []*snapshot.Snapshot
	next  int
}

// NewSliceSource returns a Source over snaps.
func NewSliceSource(snaps []*snapshot.Snapshot) *SliceSource {
	return &SliceSource{snaps: snaps}
}

// Next returns the next snapshot, or io.EOF.
func (s *SliceSource) Next(ctx context.Context) (*snapshot.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.next >= len(s.snaps) {
		return nil, io.EOF
	}
	s.next++
	return s.snaps[s.next-1], nil
}

// Close does nothing.
func (s *SliceSource) Close() error { return nil }
