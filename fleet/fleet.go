// Package fleet runs one pipeline per monitored server, each in its own
// goroutine with its own source and builder, so one slow or dead server never
// delays another's frames.
package fleet

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Member is one server of the fleet.
type Member struct {
	// Name labels the server's frames (host:port as the user gave it).
	Name    string
	Source  pipeline.Source
	Builder *pipeline.Builder
}

// Run feeds every member's frames to emit until ctx ends or every source is
// exhausted. emit is called from one goroutine per member, so it must be safe
// for concurrent use. Each source is closed when its member stops.
func Run(ctx context.Context, members []Member, emit func(server string, f *snapshot.Frame)) error {
	errs := make([]error, len(members))
	var wg sync.WaitGroup
	for i, m := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer m.Source.Close()
			err := pipeline.Run(ctx, m.Source, m.Builder, func(f *snapshot.Frame) error {
				emit(m.Name, f)
				return nil
			})
			if err != nil && !errors.Is(err, context.Canceled) {
				errs[i] = fmt.Errorf("%s: %w", m.Name, err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
