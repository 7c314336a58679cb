package recording

import (
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// maxFrameBytes bounds what one frame may decompress to, so a damaged or
// hostile file cannot make the reader allocate without limit.
const maxFrameBytes = 256 << 20

// frameCodec compresses serialised snapshots, each delta frame against the
// previous frame's bytes as a raw zstd dictionary. It keeps its encoders and
// decoder for its whole life; only the dictionary changes per frame, and an
// encoder is rebuilt only when frames outgrow its window (codec_window.go).
type frameCodec struct {
	plain     sizedEncoder // keyframes: self-contained
	delta     sizedEncoder // delta frames: dictionary swapped per frame
	decoder   *zstd.Decoder
	hasDeltaD bool // whether decoder currently holds a dictionary
}

// Compression levels. Measured on a real server with 100 busy connections
// (format 2, whose delta frames are ~600 B): zstd's fastest level gives delta
// frames as small as "better" (601 against 606 B) in a fifth of the time
// (0.2 against 1 ms) and a tenth of the memory, because nearly all of a
// delta frame is long matches against the dictionary, which every level
// finds. Its hash table is small, though: on ~1 MB frames with much new
// text (5,000 busy connections) it misses matches the default level finds
// (162 against 105 KB per frame), so frames that need a large window get the
// default level. Keyframes come every two minutes: the default level makes
// them 7 % larger than the best (8.6 against 8.1 KB, 5 B per frame), but the
// best level's tables hold 33 MB for it.
const (
	keyframeLevel   = zstd.SpeedDefault
	smallDeltaLevel = zstd.SpeedFastest
	largeDeltaLevel = zstd.SpeedDefault
	// largeWindow is the window above which delta frames get largeDeltaLevel:
	// frames of more than ~256 KB.
	largeWindow = 512 << 10
)

func newFrameCodec() (*frameCodec, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxMemory(maxFrameBytes))
	if err != nil {
		return nil, err
	}
	return &frameCodec{delta: sizedEncoder{delta: true}, decoder: dec}, nil
}

// rawDictID is the dictionary ID of every delta frame: 0, so the frame header
// carries none and the reference zstd decodes a frame with the previous one
// as a raw dictionary (zstd -d -D prev.json). A wrong predecessor still fails:
// the frame's content checksum does not match.
const rawDictID = 0

// encode appends the compressed form of raw to dst. prev is nil for a
// keyframe, else the previous frame's serialised bytes.
func (c *frameCodec) encode(dst, raw, prev []byte) ([]byte, error) {
	if prev == nil {
		enc, err := c.plain.get(len(raw))
		if err != nil {
			return nil, err
		}
		return enc.EncodeAll(raw, dst), nil
	}
	// A match reaches back across the dictionary to the same place in the
	// previous frame: about len(prev) bytes, more where this frame grew.
	enc, err := c.delta.get(max(len(prev), len(raw)) + len(raw)/4)
	if err != nil {
		return nil, err
	}
	if err := enc.ResetWithOptions(nil, zstd.WithEncoderDictRaw(rawDictID, prev)); err != nil {
		return nil, err
	}
	return enc.EncodeAll(raw, dst), nil
}

// decode appends the decompressed form of data to dst; prev as for encode.
func (c *frameCodec) decode(dst, data, prev []byte) ([]byte, error) {
	var err error
	switch {
	case prev != nil:
		err = c.decoder.ResetWithOptions(nil, zstd.WithDecoderDictDelete(),
			zstd.WithDecoderDictRaw(rawDictID, prev))
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
	c.plain.close()
	c.delta.close()
	c.decoder.Close()
}
