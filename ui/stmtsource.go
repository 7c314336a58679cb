package ui

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// stmtSampler keeps processlist-sampled statements for servers without
// digests: a new accumulator every minute, the last full one shown until
// the current one has some seconds.
type stmtSampler struct {
	cur, prev *snapshot.SampledStatements
}

const (
	stmtSampleSpan = 60.0
	stmtSampleMin  = 10.0
)

// observe feeds one frame; frames with digests need no sampling.
func (s *stmtSampler) observe(f *snapshot.Frame) {
	if f.Snapshot.Statements != nil {
		return
	}
	if s.cur == nil || s.cur.Seconds >= stmtSampleSpan {
		s.prev, s.cur = s.cur, &snapshot.SampledStatements{}
	}
	interval := 1.0
	if f.Rates != nil {
		interval = f.Rates.Interval
	}
	s.cur.Add(f.Snapshot, interval)
}

func (s *stmtSampler) rates() (rows []snapshot.StatementRate, secs float64) {
	a := s.cur
	if a == nil {
		return nil, 0
	}
	if a.Seconds < stmtSampleMin && s.prev != nil {
		a = s.prev
	}
	return a.Rates(), a.Seconds
}

// statementRows is what the statements view shows for the current frame,
// its title and the notes a DBA must read first.
func (d *Dashboard) statementRows() (rows []snapshot.StatementRate, title string, notes []string) {
	if d.frame == nil {
		return nil, "Statements", nil
	}
	s := d.frame.Snapshot
	if st := s.Statements; st != nil {
		return st.SampleRates(), digestTitle(st), digestNotes(st)
	}
	rows, secs := d.stmtSampler.rates()
	title = fmt.Sprintf("Statements  sampled from the processlist over %.0f s (no digests)  < > sort  r reverse  e explain  S close", secs)
	if why := unavailable(s, srcStatements); why != "" {
		notes = append(notes, why)
	}
	notes = append(notes, "sampled: only statements running at a sample are seen; calls and rows are lower bounds")
	return rows, title, notes
}

func digestTitle(st *snapshot.Statements) string {
	return fmt.Sprintf("Statements  performance_schema digests, %.1f s to %s, %d ran  < > sort  r reverse  e explain  S close",
		st.Interval, st.At.Format("15:04:05"), st.Changed)
}

func digestNotes(st *snapshot.Statements) []string {
	var notes []string
	if st.Interval == 0 {
		notes = append(notes, "first read of the digests: counting from now, figures from the next read")
	}
	if st.Reset {
		notes = append(notes, "the digest table was emptied (TRUNCATE) since the last read: its digests count from their new start")
	}
	if st.Lost > 0 {
		notes = append(notes, fmt.Sprintf("digest table full (performance_schema_digests_size=%d): %s statements this interval "+
			"had no row of their own and are summed in the row \"digest table full\"; raise the size", st.DigestsSize, commas(st.Lost)))
	}
	if st.StretchedTo > 0 {
		notes = append(notes, fmt.Sprintf("one read of the digests took %.0f ms (the server scans every digest to find "+
			"the changed ones): reading every %.0f s so it stays under 1 %% of the server's time", st.ReadSeconds*1000, st.StretchedTo))
	}
	if st.Changed > len(st.Digests) {
		notes = append(notes, fmt.Sprintf("showing the %d costliest of %d digests that ran", len(st.Digests), st.Changed))
	}
	return notes
}
