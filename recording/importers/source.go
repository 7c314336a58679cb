package importers

import (
	"context"
	"io"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Source replays the session's snapshots in order as a pipeline.Source.
func (s *Session) Source() pipeline.Source { return &sessionSource{snaps: s.Snapshots} }

type sessionSource struct {
	snaps []*snapshot.Snapshot
	next  int
}

func (s *sessionSource) Next(ctx context.Context) (*snapshot.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.next >= len(s.snaps) {
		return nil, io.EOF
	}
	s.next++
	return s.snaps[s.next-1], nil
}

func (s *sessionSource) Close() error {
	s.next = len(s.snaps)
	return nil
}
