package recording

import (
	"math/bits"

	"github.com/klauspost/compress/zstd"
)

// sizedEncoder is a zstd encoder built for the frames it is given: its
// window (and so its history buffer and tables) just covers them. zstd's
// default window (8 MB) and tables made the recorder's two encoders ~90 MB.
// The window cannot change on a reset, so the encoder is rebuilt when frames
// outgrow it, or shrink to a quarter of it (a server whose connections went
// away gives the memory back).
type sizedEncoder struct {
	enc    *zstd.Encoder
	window int
	delta  bool // holds a raw dictionary, swapped per frame
}

// minWindow is the smallest window an encoder is built with, so the frames
// of a quiet server that grow by a few rows do not rebuild it every tick.
const minWindow = 64 << 10

// windowFor is the window that lets matches reach back n bytes.
func windowFor(n int) int {
	n = max(n, minWindow)
	w := 1 << bits.Len(uint(n-1)) // next power of two
	return min(w, zstd.MaxWindowSize)
}

// get returns the encoder for frames whose matches reach back n bytes.
func (e *sizedEncoder) get(n int) (*zstd.Encoder, error) {
	need := windowFor(n)
	if e.enc != nil && need <= e.window && need*4 > e.window {
		return e.enc, nil
	}
	e.close()
	opts := []zstd.EOption{zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true),
		zstd.WithWindowSize(need), zstd.WithEncoderLevel(levelFor(need, e.delta))}
	if e.delta {
		opts = append(opts, zstd.WithEncoderDictRaw(rawDictID, []byte{0}))
	}
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		return nil, err
	}
	e.enc, e.window = enc, need
	return enc, nil
}

func levelFor(window int, delta bool) zstd.EncoderLevel {
	switch {
	case !delta:
		return keyframeLevel
	case window > largeWindow:
		return largeDeltaLevel
	default:
		return smallDeltaLevel
	}
}

func (e *sizedEncoder) close() {
	if e.enc != nil {
		e.enc.Close()
		e.enc = nil
	}
}
