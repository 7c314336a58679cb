package recording

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// maxFrameBytes bounds what one frame may decompress to, so a damaged or
// hostile file cannot make the reader allocate without limit.
const maxFrameBytes = 256 << 20

// frameCodec compresses serialised snapshots, each delta frame against the
// previous frame's bytes as a raw zstd dictionary. It keeps one encoder and one
// decoder for its whole life; only the dictionary changes per frame.
type frameCodec struct {
	plain     *zstd.Encoder // keyframes: self-contained
	delta     *zstd.Encoder // delta frames: dictionary swapped per frame
	decoder   *zstd.Decoder
	hasDeltaD bool // whether decoder currently holds a dictionary
}

func newFrameCodec() (*frameCodec, error) {
	plain, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	delta, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderDictRaw(1, []byte{0}))
	if err != nil {
		return nil, err
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxMemory(maxFrameBytes))
	if err != nil {
		return nil, err
	}
	return &frameCodec{plain: plain, delta: delta, decoder: dec}, nil
}

// dictID names the dictionary made of frame prevSeq's bytes. Each frame gets a
// distinct id so that a frame decoded against the wrong predecessor fails
// loudly ("unknown dictionary") and so the encoder never reuses tables built
// for an older dictionary.
func dictID(prevSeq int64) uint32 {
	id := uint32(prevSeq + 1)
	if id == 0 {
		id = 1
	}
	return id
}

// encode appends the compressed form of raw to dst. prev is nil for a
// keyframe, else the previous frame's serialised bytes (frame prevSeq).
func (c *frameCodec) encode(dst, raw, prev []byte, prevSeq int64) ([]byte, error) {
	if prev == nil {
		return c.plain.EncodeAll(raw, dst), nil
	}
	if err := c.delta.ResetWithOptions(nil, zstd.WithEncoderDictRaw(dictID(prevSeq), prev)); err != nil {
		return nil, err
	}
	return c.delta.EncodeAll(raw, dst), nil
}

// decode appends the decompressed form of data to dst; prev and prevSeq as
// for encode.
func (c *frameCodec) decode(dst, data, prev []byte, prevSeq int64) ([]byte, error) {
	var err error
	switch {
	case prev != nil:
		err = c.decoder.ResetWithOptions(nil, zstd.WithDecoderDictDelete(),
			zstd.WithDecoderDictRaw(dictID(prevSeq), prev))
		c.hasDeltaD = true
	case c.hasDeltaD:
		err = c.decoder.ResetWithOptions(nil, zstd.WithDecoderDictDelete())
		c.hasDeltaD = false
	}
	if err != nil {
		return nil, err
	}
	out, err := c.decoder.DecodeAll(data, dst)
	if err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	return out, nil
}

func (c *frameCodec) close() {
	c.plain.Close()
	c.delta.Close()
	c.decoder.Close()
}
