package recording

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/mytop-go/mytop-go/snapshot"
)

// FrameWriter is what keepAround writes to: a *Writer, or a test's recorder.
type FrameWriter interface {
	Write(*snapshot.Frame) error
}

// keepAround writes full detail only within Around of a frame with a finding
// at warning or above, pt-stalk style, and one thin frame (no processlist,
// plans or InnoDB text; every counter kept, so rates still work) per ThinEvery
// otherwise. A day of a healthy server then costs little while an incident is
// kept whole, from Around before its first finding to Around after its last.
//
// Frames not yet written wait in a ring of the last Around, compressed, so
// ten minutes of a busy server cost megabytes, not the frames' full size.
// Every frame leaves the ring oldest first, so the file stays in time order.
type keepAround struct {
	w         FrameWriter
	around    time.Duration
	thinEvery time.Duration

	ring      []heldFrame
	keepUntil time.Time
	lastThin  time.Time
	// varsChanged carries a variables change seen in a frame that was not
	// written, so the next written frame stores the new variables.
	varsChanged bool

	enc *zstd.Encoder
	dec *zstd.Decoder
}

type heldFrame struct {
	at   time.Time
	data []byte // zstd(JSON(frame))
	vars bool   // the frame's snapshot changed the variables
}

// DefaultThinEvery is the spacing of thin frames outside incidents: enough
// for the timeline to have no hole and for per-minute rates.
const DefaultThinEvery = time.Minute

// newKeepAround filters frames for w. thinEvery <= 0 means DefaultThinEvery.
func newKeepAround(w FrameWriter, around, thinEvery time.Duration) (*keepAround, error) {
	if around <= 0 {
		return nil, fmt.Errorf("--keep-around %v: want a positive duration such as 10m", around)
	}
	if thinEvery <= 0 {
		thinEvery = DefaultThinEvery
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	return &keepAround{w: w, around: around, thinEvery: thinEvery, enc: enc, dec: dec}, nil
}

// Write takes the next frame in time order.
func (k *keepAround) Write(f *snapshot.Frame) error {
	t := f.Time()
	if troubled(f) {
		k.keepUntil = t.Add(k.around)
		if err := k.flush(); err != nil {
			return err
		}
		return k.write(f)
	}
	if !t.After(k.keepUntil) {
		return k.write(f)
	}
	if err := k.hold(f); err != nil {
		return err
	}
	return k.evict(t.Add(-k.around))
}

// Held is the number of frames waiting in the ring (for tests and health lines).
func (k *keepAround) Held() int { return len(k.ring) }

// Close writes the held frames' thin ones, so the timeline runs to the end,
// and releases the codec.
func (k *keepAround) Close() error {
	var err error
	if len(k.ring) > 0 {
		last := k.ring[len(k.ring)-1].at
		err = k.evict(last.Add(time.Nanosecond))
	}
	k.enc.Close()
	k.dec.Close()
	k.ring = nil
	return err
}

func troubled(f *snapshot.Frame) bool {
	for _, fd := range f.Findings {
		if fd.Severity >= snapshot.Warning {
			return true
		}
	}
	return false
}

func (k *keepAround) hold(f *snapshot.Frame) error {
	raw, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("keep-around: %w", err)
	}
	k.ring = append(k.ring, heldFrame{at: f.Time(), data: k.enc.EncodeAll(raw, nil),
		vars: f.Snapshot.VariablesChanged})
	return nil
}

// evict writes frames older than cutoff as thin ones, one per thinEvery.
func (k *keepAround) evict(cutoff time.Time) error {
	n := 0
	for ; n < len(k.ring) && k.ring[n].at.Before(cutoff); n++ {
		h := k.ring[n]
		k.varsChanged = k.varsChanged || h.vars
		if !k.lastThin.IsZero() && h.at.Sub(k.lastThin) < k.thinEvery {
			continue
		}
		f, err := k.unhold(h)
		if err != nil {
			return err
		}
		k.lastThin = h.at
		if err := k.write(thin(f)); err != nil {
			return err
		}
	}
	k.ring = append(k.ring[:0], k.ring[n:]...)
	return nil
}

// flush writes every held frame in full: they lead up to trouble.
func (k *keepAround) flush() error {
	for _, h := range k.ring {
		f, err := k.unhold(h)
		if err != nil {
			return err
		}
		if err := k.write(f); err != nil {
			return err
		}
	}
	k.ring = k.ring[:0]
	return nil
}

func (k *keepAround) unhold(h heldFrame) (*snapshot.Frame, error) {
	raw, err := k.dec.DecodeAll(h.data, nil)
	if err != nil {
		return nil, fmt.Errorf("keep-around: %w", err)
	}
	var f snapshot.Frame
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("keep-around: %w", err)
	}
	return &f, nil
}

func (k *keepAround) write(f *snapshot.Frame) error {
	if k.varsChanged && !f.Snapshot.VariablesChanged && f.Snapshot.Variables != nil {
		s := *f.Snapshot
		s.VariablesChanged = true
		c := *f
		c.Snapshot = &s
		f = &c
	}
	k.varsChanged = false
	return k.w.Write(f)
}

// thin keeps what the timeline and rates need and drops the bulk.
func thin(f *snapshot.Frame) *snapshot.Frame {
	s := *f.Snapshot
	s.Processlist, s.Explains, s.Threads = nil, nil, nil
	if s.InnoDB != nil {
		in := *s.InnoDB
		in.Raw = ""
		s.InnoDB = &in
	}
	c := *f
	c.Snapshot = &s
	return &c
}
