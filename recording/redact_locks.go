package recording

import "github.com/mytop-go/mytop-go/snapshot"

// redactedRootBlockers scrubs the statements root blockers quote.
func redactedRootBlockers(rb []snapshot.RootBlocker, queries []quote) []snapshot.RootBlocker {
	if len(rb) == 0 {
		return rb
	}
	out := make([]snapshot.RootBlocker, len(rb))
	for i, r := range rb {
		r.Statement = scrubQuotes(r.Statement, queries)
		out[i] = r
	}
	return out
}
