package pipeline

import (
	"context"
	"errors"
	"io"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Run reads src until it ends or ctx is cancelled, handing each frame to emit.
// It returns nil at the end of a finite source.
func Run(ctx context.Context, src Source, b *Builder, emit func(*snapshot.Frame) error) error {
	for {
		s, err := src.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if err := emit(b.Add(s)); err != nil {
			return err
		}
	}
}
