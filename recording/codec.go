package recording

import (
	"fmt"
	"math/bits"

	"github.com/klauspost/compress/zstd"
)

// maxFrameBytes bounds what one frame may decompress to, so a damaged or
// hostile file cannot make the reader allocate without limit.
const maxFrameBytes = 256 << 20

// frameCodec compresses serialised snapshots, each delta frame against the
// previous frame's bytes as a raw zstd dictionary. It keeps its encoders and
// decoder for its whole life; only the dictionary changes per frame, and the
// encoders are rebuilt only when frames outgrow their window.
type frameCodec struct {
	window    int           // window the encoders were built for; 0 before the first frame
	plain     *zstd.Encoder // keyframes: self-contained
	delta     *zstd.Encoder // delta frames: dictionary swapped per frame
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
	return &frameCodec{decoder: dec}, nil
}

// minWindow is the smallest window the encoders are built with, so frames
// of a quiet server that grow by a few rows do not rebuild them every tick.
const minWindow = 64 << 10

// windowFor is the window a delta frame of raw against prev needs: a match
// reaches back across the whole dictionary to the same place in the previous
// frame, so the window covers both.
func windowFor(raw, prev int) int {
	n := max(raw+prev, minWindow)
	w := 1 << bits.Len(uint(n-1)) // next power of two
	return min(w, zstd.MaxWindowSize)
}

// ensureWindow rebuilds the encoders when the frames no longer fit their
// window, or at a keyframe when they need a quarter of it (a server whose
// connections went away gives the memory back). The encoders' history and
// tables scale with the window; zstd's default window (8 MB) and tables
// made the recorder's codec ~90 MB.
func (c *frameCodec) ensureWindow(need int, key bool) error {
	if c.plain != nil && (need <= c.window && !(key && need*4 <= c.window)) {
		return nil
	}
	c.closeEncoders()
	opts := []zstd.EOption{zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true),
		zstd.WithWindowSize(need)}
	plain, err := zstd.NewWriter(nil, append(opts, zstd.WithEncoderLevel(keyframeLevel))...)
	if err != nil {
		return err
	}
	level := smallDeltaLevel
	if need > largeWindow {
		level = largeDeltaLevel
	}
	delta, err := zstd.NewWriter(nil, append(opts, zstd.WithEncoderLevel(level),
		zstd.WithEncoderDictRaw(rawDictID, []byte{0}))...)
	if err != nil {
		plain.Close()
		return err
	}
	c.plain, c.delta, c.window = plain, delta, need
	return nil
}

// rawDictID is the dictionary ID of every delta frame: 0, so the frame header
// carries none and the reference zstd decodes a frame with the previous one
// as a raw dictionary (zstd -d -D prev.json). A wrong predecessor still fails:
// the frame's content checksum does not match.
const rawDictID = 0

// encode appends the compressed form of raw to dst. prev is nil for a
// keyframe, else the previous frame's serialised bytes.
func (c *frameCodec) encode(dst, raw, prev []byte) ([]byte, error) {
	// A keyframe is sized as if it had a dictionary like itself, so the
	// delta frame after it does not rebuild the encoders.
	dict := len(prev)
	if prev == nil {
		dict = len(raw)
	}
	if err := c.ensureWindow(windowFor(len(raw), dict), prev == nil); err != nil {
		return nil, err
	}
	if prev == nil {
		return c.plain.EncodeAll(raw, dst), nil
	}
	if err := c.delta.ResetWithOptions(nil, zstd.WithEncoderDictRaw(rawDictID, prev)); err != nil {
		return nil, err
	}
	return c.delta.EncodeAll(raw, dst), nil
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

func (c *frameCodec) closeEncoders() {
	if c.plain != nil {
		c.plain.Close()
		c.delta.Close()
		c.plain, c.delta = nil, nil
	}
}

func (c *frameCodec) close() {
	c.closeEncoders()
	c.decoder.Close()
}
