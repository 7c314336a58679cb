// Package pipeline turns Snapshots from any source (live collectors, a
// recording, an imported capture) into Frames: rates against the previous
// snapshot and findings over a sliding window, with the same code for all.
package pipeline

import (
	"context"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Source yields Snapshots in time order. Next returns io.EOF when a finite
// source is exhausted.
type Source interface {
	Next(ctx context.Context) (*snapshot.Snapshot, error)
	Close() error
}
