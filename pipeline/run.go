package pipeline

import (
	"context"
	"errors"
	"io"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Jumper is a Source that can jump (a replay seeking or stepping back).
// Jumped reports whether the snapshot Next last returned follows a jump.
type Jumper interface {
	Jumped() bool
}

// Run reads src until it ends or ctx is cancelled, handing each frame to emit.
// It returns nil at the end of a finite source. After a jump of a Jumper the
// Builder is reset, so rates and findings start afresh from the frames the
// source delivers, as they would have live. Live, replay, report, import and
// snapshot all feed their consumers through here.
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
		if j, ok := src.(Jumper); ok && j.Jumped() {
			b.Reset()
		}
		if err := emit(b.Add(s)); err != nil {
			return err
		}
	}
}
