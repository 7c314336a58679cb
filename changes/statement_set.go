package changes

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// statementSet is a window's statements by shape (snapshot.StatementShape),
// the key a digest's text and a processlist fingerprint of one statement
// share, so that a window of either source compares with one of the other.
type statementSet struct {
	byShape map[string]snapshot.StatementRate
	// cut are the shapes of digests whose text the server may have cut
	// short: of a statement longer than its max_digest_length (1024 bytes
	// of tokens by default) it keeps the start, so the shape of the whole
	// statement, as the processlist shows it, only begins with theirs.
	cut []string
}

// minCutText is the length from which a digest's text may have been cut:
// well under what 1024 bytes of tokens print as.
const minCutText = 500

func newStatementSet(n int) statementSet {
	return statementSet{byShape: make(map[string]snapshot.StatementRate, n)}
}

// add takes one row; rows of one shape add up (one statement in two
// schemas, or two the shape joins), named by the first, the costliest.
func (s *statementSet) add(shape string, r snapshot.StatementRate) {
	if shape == "" {
		return
	}
	sum, ok := s.byShape[shape]
	if !ok {
		s.byShape[shape] = r
		if r.Source == snapshot.StatementsPerfSchema && len(r.Fingerprint) >= minCutText {
			s.cut = append(s.cut, shape)
		}
		return
	}
	s.byShape[shape] = sumRates(sum, r)
}

// find is the statement of that shape, or of a cut digest it begins with.
func (s statementSet) find(shape string) (snapshot.StatementRate, bool) {
	if r, ok := s.byShape[shape]; ok {
		return r, true
	}
	if c, ok := s.cutOf(shape); ok {
		return s.byShape[c], true
	}
	return snapshot.StatementRate{}, false
}

// cutOf is the shape of the cut digest shape begins with.
func (s statementSet) cutOf(shape string) (string, bool) {
	for _, c := range s.cut {
		if strings.HasPrefix(shape, c) {
			return c, true
		}
	}
	return "", false
}

// sumRates adds b's figures to a's; a latency per call is known when the
// source timed each call (digests), and then it is recomputed.
func sumRates(a, b snapshot.StatementRate) snapshot.StatementRate {
	a.CallsPerS += b.CallsPerS
	a.LatencySPerS += b.LatencySPerS
	a.LockSPerS += b.LockSPerS
	a.RowsExaminedPerS += b.RowsExaminedPerS
	a.RowsSentPerS += b.RowsSentPerS
	a.RowsAffectedPerS += b.RowsAffectedPerS
	a.NoIndexUsed = a.NoIndexUsed || b.NoIndexUsed
	a.NoIndexUsedPerS += b.NoIndexUsedPerS
	a.NoGoodIndexPerS += b.NoGoodIndexPerS
	a.TmpDiskTablesPerS += b.TmpDiskTablesPerS
	a.SortMergePerS += b.SortMergePerS
	a.ErrorsPerS += b.ErrorsPerS
	a.MaxS, a.P95S, a.P99S = max(a.MaxS, b.MaxS), max(a.P95S, b.P95S), max(a.P99S, b.P99S)
	if a.AvgLatencyS > 0 || b.AvgLatencyS > 0 {
		a.AvgLatencyS = 0
		if a.CallsPerS > 0 {
			a.AvgLatencyS = a.LatencySPerS / a.CallsPerS
		}
	}
	return a
}
