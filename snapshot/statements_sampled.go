package snapshot

import "time"

// SampledStatements estimates top statements from processlist samples, for
// servers without digests (performance_schema off). It only sees what runs
// at the instant of a sample: thread-seconds are an honest estimate of
// latency per second, but calls and rows are lower bounds.
type SampledStatements struct {
	Seconds float64
	byFP    map[string]*sampledStatement
	order   []string
	// running is what each thread ran at the previous sample, to tell a new
	// run from the same one seen again.
	running map[int64]sampledRun
	last    time.Time
}

type sampledStatement struct {
	d       Digest
	threadS float64
}

type sampledRun struct {
	fp       string
	timeMS   int64
	examined int64
}

// maxSampledStatements bounds the fingerprints kept, so a capture of ad-hoc
// statements cannot grow memory without limit.
const maxSampledStatements = 5000

// maxSampleText bounds the example statement kept per fingerprint.
const maxSampleText = 2000

// Add takes one snapshot's processlist, covering interval seconds.
func (a *SampledStatements) Add(s *Snapshot, interval float64) {
	if s == nil || s.Server.Unreachable {
		return
	}
	a.AddProcesslist(s.Time, s.Processlist, interval)
}

// AddProcesslist takes a processlist read at at, covering interval seconds;
// lists come in time order. Only its rows that RunsStatement matter.
func (a *SampledStatements) AddProcesslist(at time.Time, list []Process, interval float64) {
	if !at.After(a.last) {
		return
	}
	a.last = at
	if interval <= 0 {
		interval = 1
	}
	a.Seconds += interval
	if a.byFP == nil {
		a.byFP = map[string]*sampledStatement{}
	}
	now := make(map[int64]sampledRun, len(a.running))
	for i := range list {
		p := &list[i]
		if !p.RunsStatement() {
			continue
		}
		run := sampledRun{fp: Fingerprint(p.Info), timeMS: p.TimeMS, examined: max(p.ExaminedRows, 0)}
		now[p.ID] = run
		st := a.statement(run.fp, p)
		if st == nil {
			continue
		}
		st.threadS += interval
		prev, seen := a.running[p.ID]
		again := seen && prev.fp == run.fp && prev.timeMS <= run.timeMS
		if !again {
			st.d.Calls++
			prev.examined = 0
		}
		st.d.RowsExamined += max(run.examined-prev.examined, 0)
		if p.NoIndexUsed {
			st.d.NoIndexUsed++
		}
		st.d.MaxS = max(st.d.MaxS, float64(p.TimeMS)/1000)
	}
	a.running = now
}

// RunsStatement reports whether p is a thread running a statement whose
// text is known.
func (p *Process) RunsStatement() bool {
	return (p.Command == "Query" || p.Command == "Execute") && p.Info != ""
}

func (a *SampledStatements) statement(fp string, p *Process) *sampledStatement {
	if st, ok := a.byFP[fp]; ok {
		return st
	}
	if len(a.byFP) >= maxSampledStatements {
		return nil
	}
	sample := p.Info
	if len(sample) > maxSampleText {
		sample = sample[:maxSampleText]
	}
	st := &sampledStatement{d: Digest{Schema: p.DB, Text: fp, Sample: sample}}
	a.byFP[fp] = st
	a.order = append(a.order, fp)
	return st
}

// Rates returns the sampled statements' per-second figures, busiest first.
func (a *SampledStatements) Rates() []StatementRate {
	return a.RatesOver(a.Seconds)
}

// RatesOver is Rates over secs seconds rather than the seconds sampled: for
// samples that cover part of a longer period, whose statements the rest of
// it did not show (they ran only in the part sampled).
func (a *SampledStatements) RatesOver(secs float64) []StatementRate {
	if a.Seconds <= 0 || secs <= 0 {
		return nil
	}
	out := make([]StatementRate, 0, len(a.order))
	for _, fp := range a.order {
		st := a.byFP[fp]
		r := st.d.Rate(secs)
		r.LatencySPerS = st.threadS / secs
		r.AvgLatencyS = 0 // unknown: only the runs caught are timed, and not to their end
		r.NoIndexUsed = st.d.NoIndexUsed > 0
		r.Source = StatementsProcesslist
		out = append(out, r)
	}
	sortStatementRates(out)
	return out
}
