package pipeline

import (
	"github.com/mytop-go/mytop-go/snapshot"

	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// Analyzer turns a window of frames into findings; the last frame is the
// current one. It is an interface here so the pipeline does not depend on the
// rule set, and tests can run it without one.
type Analyzer interface {
	Evaluate(window []*snapshot.Frame) ([]snapshot.Finding, map[string]string)
}

// Judge compares a frame with the server's own normal after the analyzer
// evaluated it: it may set the frame's onsets and mark its findings chronic.
// An Analyzer that is also a Judge is called for every frame, in order, so
// the state it keeps is rebuilt from the frames alone.
type Judge interface {
	Judge(f *snapshot.Frame)
}

// windowSize is how many frames analyzers see. Five minutes at 1 s covers the
// longest persistence any rule uses, and bounds memory.
const windowSize = 300

// Builder turns a stream of Snapshots into Frames. Live, replay and import all
// go through one Builder so they compute the same rates and findings.
type Builder struct {
	analyzer Analyzer
	mode     snapshot.Mode
	window   []*snapshot.Frame
	prev     *snapshot.Snapshot
	seq      int
	slim     slimmer
	meter    infer.LoadMeter
	held     heldReadings
	// Recording is copied into each frame for the header.
	Recording string
}

// NewBuilder returns a Builder labelling frames with mode.
// analyzer may be nil.
func NewBuilder(mode snapshot.Mode, analyzer Analyzer) *Builder {
	b := &Builder{analyzer: analyzer, mode: mode, window: make([]*snapshot.Frame, 0, windowSize), held: newHeldReadings()}
	b.slim = newSlimmer(analyzer)
	return b
}

// Add computes the frame for s.
func (b *Builder) Add(s *snapshot.Snapshot) *snapshot.Frame {
	// Before anything sees it: the screen, a recording, a report, the
	// exporter, whatever the source (live, replay, a capture).
	s.MaskSecrets(b.prev)
	f := &snapshot.Frame{
		Seq:       b.seq,
		Snapshot:  s,
		Rates:     snapshot.Delta(b.prev, s),
		Mode:      b.mode,
		Recording: b.Recording,
	}
	b.held.rate(f, b.prev)
	f.Load = b.meter.Measure(s, f.Rates)
	b.seq++
	b.prev = s
	b.push(f)
	b.slim.slimAt(b.window)
	if b.analyzer != nil {
		f.Findings, f.NotApplicable = b.analyzer.Evaluate(b.window)
		if j, ok := b.analyzer.(Judge); ok {
			j.Judge(f)
		}
	}
	return f
}

// Reset starts afresh after a jump in the source (a replay's seek or step
// back): no rates against the frame before the jump, an empty window for the
// analyzers, frames numbered from 0 again, as a fresh run would have them.
func (b *Builder) Reset() {
	clear(b.window)
	b.window, b.prev, b.seq, b.held = b.window[:0], nil, 0, newHeldReadings()
	b.slim = newSlimmer(b.analyzer)
}

// Analyzer is the analyzer the Builder runs (nil when none), for a command
// that keeps its state across runs.
func (b *Builder) Analyzer() Analyzer { return b.analyzer }

// Window returns the frames analyzers currently see, oldest first.
func (b *Builder) Window() []*snapshot.Frame { return b.window }

func (b *Builder) push(f *snapshot.Frame) {
	if len(b.window) == windowSize {
		// Shift in place: the backing array never grows, and the frame falling
		// off becomes garbage.
		copy(b.window, b.window[1:])
		b.window = b.window[:windowSize-1]
	}
	b.window = append(b.window, f)
}
