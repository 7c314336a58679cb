package changes

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A window's statements come from the server's digests when it has them,
// else from processlist samples. A digest sample covers the seconds since
// the one before, and comes every few seconds or more: the frames after the
// window's last new sample are covered by none, and a statement that ran
// only there (an incident in the last seconds of a recording) would be
// missing. So the window also keeps the processlists of those frames, the
// tail, and adds what they show of statements the digests lack.
//
// The tail starts again at each new digest sample, so a statement running
// across one is counted as a call of the tail when first seen there
// (SampledStatements counts a run at its first sighting). That is no double
// count: the server adds a statement to its digest when it ends, so one
// still running after the sample is in no digest yet.

// tailFrame is a frame of the tail not yet sampled: the statements its
// processlist showed running.
type tailFrame struct {
	at       time.Time
	interval float64
	running  []snapshot.Process
}

// maxTailFrames bounds the tail frames kept unsampled. Sampling
// (fingerprinting each statement) is put off because most tails end at the
// next digest sample, which makes them worthless; past this many frames
// (minutes of a digest collector that stopped, say) the oldest are sampled
// at once, so memory stays bounded.
const maxTailFrames = 64

func (w *Window) addStatements(f *snapshot.Frame) {
	s := f.Snapshot
	if w.digests.Add(s.Statements) {
		w.tail, w.tailFrames = snapshot.SampledStatements{}, w.tailFrames[:0]
		return
	}
	interval := 1.0
	if f.Rates != nil {
		interval = f.Rates.Interval
	}
	if w.digests.Seconds == 0 {
		// No digest yet, perhaps none ever: sampled now, as a source
		// without digests always was.
		w.tail.Add(s, interval)
		return
	}
	if len(w.tailFrames) == maxTailFrames {
		w.sampleTail(1)
	}
	w.keepTailFrame(s, interval)
}

// keepTailFrame copies the rows of the frame's processlist that run a
// statement (the frame's own list may be reused once it is gone), into the
// buffer a tail frame had before the last digest sample when there is one:
// tails come and go every few seconds, their buffers stay.
func (w *Window) keepTailFrame(s *snapshot.Snapshot, interval float64) {
	n := len(w.tailFrames)
	if n < cap(w.tailFrames) {
		w.tailFrames = w.tailFrames[:n+1]
	} else {
		w.tailFrames = append(w.tailFrames, tailFrame{})
	}
	tf := &w.tailFrames[n]
	tf.at, tf.interval, tf.running = s.Time, interval, tf.running[:0]
	for i := range s.Processlist {
		if p := &s.Processlist[i]; p.RunsStatement() {
			tf.running = append(tf.running, *p)
		}
	}
}

// sampleTail samples the n oldest tail frames kept.
func (w *Window) sampleTail(n int) {
	for _, tf := range w.tailFrames[:n] {
		w.tail.AddProcesslist(tf.at, tf.running, tf.interval)
	}
	rest := copy(w.tailFrames, w.tailFrames[n:])
	// The frames moved share their buffers with the slots they left.
	clear(w.tailFrames[rest:])
	w.tailFrames = w.tailFrames[:rest]
}

// statements are the window's statements per second: the digests', and
// the tail's of shapes the digests lack, per second of the whole window
// (the digests' seconds and the tail's) so both compare alike; a tail row
// keeps its Source, so a reader knows it was sampled. Without digests, all
// are the processlist's.
func (w *Window) statements() statementSet {
	w.sampleTail(len(w.tailFrames))
	rows := w.digests.Rates()
	set := newStatementSet(len(rows))
	for _, r := range rows {
		set.add(snapshot.StatementShape(r.Fingerprint), r)
	}
	tail := newStatementSet(0)
	for _, r := range w.tail.RatesOver(w.digests.Seconds + w.tail.Seconds) {
		shape := snapshot.StatementShape(r.Fingerprint)
		if _, ok := set.find(shape); !ok {
			tail.add(shape, r)
		}
	}
	for shape, r := range tail.byShape {
		set.byShape[shape] = r
	}
	return set
}
