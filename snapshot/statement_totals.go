package snapshot

import "time"

// StatementTotals adds up a period's statements: from the server's digests
// when it has them, else from processlist samples. A digest sample covers
// the seconds since the one before, and comes every few seconds or more:
// the frames after the period's last new sample are covered by none, and a
// statement that ran only there (an incident in the last seconds of a
// recording) would be missing. So it also keeps the processlists of those
// frames, the tail, and adds what they show of statements the digests lack.
//
// The tail starts again at each new digest sample, so a statement running
// across one is counted as a call of the tail when first seen there
// (SampledStatements counts a run at its first sighting). That is no double
// count: the server adds a statement to its digest when it ends, so one
// still running after the sample is in no digest yet.
type StatementTotals struct {
	// digests sum the digest samples; tail samples the processlist of the
	// frames no digest sample covers, tailFrames those of them not sampled
	// yet.
	digests    DigestTotals
	tail       SampledStatements
	tailFrames []tailFrame
}

// tailFrame is a frame of the tail not yet sampled: the statements its
// processlist showed running.
type tailFrame struct {
	at       time.Time
	interval float64
	running  []Process
}

// maxTailFrames bounds the tail frames kept unsampled. Sampling
// (fingerprinting each statement) is put off because most tails end at the
// next digest sample, which makes them worthless; past this many frames
// (minutes of a digest collector that stopped, say) the oldest are sampled
// at once, so memory stays bounded.
const maxTailFrames = 64

// Add takes one frame; frames come in time order.
func (t *StatementTotals) Add(f *Frame) {
	s := f.Snapshot
	if s == nil {
		return
	}
	if t.digests.Add(s.Statements) {
		t.tail, t.tailFrames = SampledStatements{}, t.tailFrames[:0]
		return
	}
	if s.Server.Unreachable {
		return
	}
	interval := 1.0
	if f.Rates != nil {
		interval = f.Rates.Interval
	}
	if t.digests.Seconds == 0 {
		// No digest yet, perhaps none ever: sampled now, as a source
		// without digests always was.
		t.tail.Add(s, interval)
		return
	}
	if len(t.tailFrames) == maxTailFrames {
		t.sampleTail(1)
	}
	t.keepTailFrame(s, interval)
}

// keepTailFrame copies the rows of the frame's processlist that run a
// statement (the frame's own list may be reused once it is gone), into the
// buffer a tail frame had before the last digest sample when there is one:
// tails come and go every few seconds, their buffers stay.
func (t *StatementTotals) keepTailFrame(s *Snapshot, interval float64) {
	n := len(t.tailFrames)
	if n < cap(t.tailFrames) {
		t.tailFrames = t.tailFrames[:n+1]
	} else {
		t.tailFrames = append(t.tailFrames, tailFrame{})
	}
	tf := &t.tailFrames[n]
	tf.at, tf.interval, tf.running = s.Time, interval, tf.running[:0]
	for i := range s.Processlist {
		if p := &s.Processlist[i]; p.RunsStatement() {
			tf.running = append(tf.running, *p)
		}
	}
}

// sampleTail samples the n oldest tail frames kept.
func (t *StatementTotals) sampleTail(n int) {
	for _, tf := range t.tailFrames[:n] {
		t.tail.AddProcesslist(tf.at, tf.running, tf.interval)
	}
	rest := copy(t.tailFrames, t.tailFrames[n:])
	// The frames moved share their buffers with the slots they left.
	clear(t.tailFrames[rest:])
	t.tailFrames = t.tailFrames[:rest]
}

// Rates returns the statements per second, busiest first: the digests',
// and the tail's of shapes (StatementShape) the digests lack, per second of
// the whole period (the digests' seconds and the tail's) so both compare
// alike; a tail row keeps its Source, so a reader knows it was sampled.
// Without digests, all are the processlist's.
func (t *StatementTotals) Rates() []StatementRate {
	t.sampleTail(len(t.tailFrames))
	rows := t.digests.Rates()
	tail := t.tail.RatesOver(t.digests.Seconds + t.tail.Seconds)
	if len(rows) == 0 || len(tail) == 0 {
		return append(rows, tail...)
	}
	digested := make(map[string]bool, len(rows))
	for _, r := range rows {
		digested[StatementShape(r.Fingerprint)] = true
	}
	for _, r := range tail {
		if !digested[StatementShape(r.Fingerprint)] {
			rows = append(rows, r)
		}
	}
	sortStatementRates(rows)
	return rows
}
