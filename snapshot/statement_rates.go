package snapshot

import (
	"sort"
	"time"
)

// StatementRate is one statement's per-second cost over some seconds: one
// digest sample, a report's range, or processlist sightings. Its JSON is the
// report's `statements` contract.
type StatementRate struct {
	Digest      string `json:"digest"`
	Fingerprint string `json:"fingerprint"`
	Schema      string `json:"schema,omitempty"`
	// CallsPerS: from processlist sightings it counts the distinct runs seen,
	// a lower bound (statements shorter than a tick are mostly missed).
	CallsPerS float64 `json:"calls_per_s"`
	// LatencySPerS is seconds spent in the statement per second: the average
	// number of threads running it.
	LatencySPerS      float64 `json:"latency_s_per_s"`
	AvgLatencyS       float64 `json:"avg_latency_s"`
	LockSPerS         float64 `json:"lock_s_per_s"`
	RowsExaminedPerS  float64 `json:"rows_examined_per_s"`
	RowsSentPerS      float64 `json:"rows_sent_per_s"`
	RowsAffectedPerS  float64 `json:"rows_affected_per_s"`
	NoIndexUsed       bool    `json:"no_index_used"`
	NoIndexUsedPerS   float64 `json:"no_index_used_per_s"`
	NoGoodIndexPerS   float64 `json:"no_good_index_used_per_s"`
	TmpDiskTablesPerS float64 `json:"tmp_disk_tables_per_s"`
	SortMergePerS     float64 `json:"sort_merge_passes_per_s"`
	ErrorsPerS        float64 `json:"errors_per_s"`
	MaxS              float64 `json:"max_s,omitempty"`
	P95S              float64 `json:"p95_s,omitempty"`
	P99S              float64 `json:"p99_s,omitempty"`
	Sample            string  `json:"sample,omitempty"`
	// Source is StatementsPerfSchema or StatementsProcesslist.
	Source string `json:"source"`
}

// DigestTotals adds digest samples up: each sample (by its At) once.
type DigestTotals struct {
	Seconds float64
	byKey   map[digestKey]*Digest
	order   []digestKey
	last    time.Time
}

type digestKey struct{ schema, digest, text string }

// Add takes one sample and reports whether it did: a sample already added
// (a carried one) or one covering no interval is skipped.
func (t *DigestTotals) Add(st *Statements) bool {
	if st == nil || st.Interval <= 0 || !st.At.After(t.last) {
		return false
	}
	t.last = st.At
	t.Seconds += st.Interval
	if t.byKey == nil {
		t.byKey = map[digestKey]*Digest{}
	}
	for i := range st.Digests {
		d := &st.Digests[i]
		k := digestKey{d.Schema, d.Digest, ""}
		if d.Digest == "" {
			k.text = d.Text
		}
		sum, ok := t.byKey[k]
		if !ok {
			c := *d
			t.byKey[k] = &c
			t.order = append(t.order, k)
			continue
		}
		sum.addCounts(d)
	}
	return true
}

// addCounts adds d's interval to s; life-long figures take the latest.
func (s *Digest) addCounts(d *Digest) {
	s.Calls += d.Calls
	s.Errors += d.Errors
	s.Warnings += d.Warnings
	s.LatencyS += d.LatencyS
	s.LockS += d.LockS
	s.RowsExamined += d.RowsExamined
	s.RowsSent += d.RowsSent
	s.RowsAffected += d.RowsAffected
	s.NoIndexUsed += d.NoIndexUsed
	s.NoGoodIndexUsed += d.NoGoodIndexUsed
	s.TmpTables += d.TmpTables
	s.TmpDiskTables += d.TmpDiskTables
	s.SortMergePasses += d.SortMergePasses
	s.MaxS, s.P95S, s.P99S = max(s.MaxS, d.MaxS), d.P95S, d.P99S
	if d.Sample != "" {
		s.Sample = d.Sample
	}
	if s.Text == "" {
		s.Text = d.Text
	}
}

// Rates returns every digest's per-second figures, costliest (latency per
// second) first.
func (t *DigestTotals) Rates() []StatementRate {
	if t.Seconds <= 0 {
		return nil
	}
	out := make([]StatementRate, 0, len(t.order))
	for _, k := range t.order {
		out = append(out, t.byKey[k].Rate(t.Seconds))
	}
	sortStatementRates(out)
	return out
}

// SampleRates is the per-second view of one sample.
func (st *Statements) SampleRates() []StatementRate {
	var t DigestTotals
	t.Add(st)
	return t.Rates()
}

// Rate is d's per-second view over secs.
func (d *Digest) Rate(secs float64) StatementRate {
	r := StatementRate{
		Digest: d.Digest, Fingerprint: d.Text, Schema: d.Schema, Sample: d.Sample,
		CallsPerS: float64(d.Calls) / secs, LatencySPerS: d.LatencyS / secs, LockSPerS: d.LockS / secs,
		RowsExaminedPerS: float64(d.RowsExamined) / secs, RowsSentPerS: float64(d.RowsSent) / secs,
		RowsAffectedPerS: float64(d.RowsAffected) / secs,
		NoIndexUsed:      d.NoIndexUsed > 0, NoIndexUsedPerS: float64(d.NoIndexUsed) / secs,
		NoGoodIndexPerS:   float64(d.NoGoodIndexUsed) / secs,
		TmpDiskTablesPerS: float64(d.TmpDiskTables) / secs, SortMergePerS: float64(d.SortMergePasses) / secs,
		ErrorsPerS: float64(d.Errors) / secs, MaxS: d.MaxS, P95S: d.P95S, P99S: d.P99S,
		Source: StatementsPerfSchema,
	}
	if d.Digest == "" && r.Fingerprint == "" {
		r.Fingerprint = "(digest table full: statements without a row of their own)"
	}
	if d.Calls > 0 {
		r.AvgLatencyS = d.LatencyS / float64(d.Calls)
	}
	return r
}

// sortStatementRates orders by latency per second, then calls, then text.
func sortStatementRates(rs []StatementRate) {
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].LatencySPerS != rs[j].LatencySPerS {
			return rs[i].LatencySPerS > rs[j].LatencySPerS
		}
		if rs[i].CallsPerS != rs[j].CallsPerS {
			return rs[i].CallsPerS > rs[j].CallsPerS
		}
		return rs[i].Fingerprint < rs[j].Fingerprint
	})
}
