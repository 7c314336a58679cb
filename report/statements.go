package report

import (
	"sort"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Statement is a fingerprinted statement seen running in the processlist.
type Statement struct {
	Fingerprint string `json:"fingerprint"`
	// Seen is how many times a thread was seen running it, over all frames.
	Seen int `json:"seen"`
	// Seconds is thread-seconds spent in it: each sighting counts the frame's
	// interval, so five threads for ten seconds is fifty.
	Seconds float64 `json:"seconds"`
	// MaxSeconds is the longest single run observed.
	MaxSeconds float64 `json:"max_seconds"`
	Example    string  `json:"example,omitempty"`
}

// maxStatements bounds how many fingerprints are tracked, so a capture of
// ad-hoc statements cannot grow the report without limit.
const maxStatements = 5000

type statementAcc map[string]*Statement

func (a statementAcc) add(f *snapshot.Frame) {
	step := 1.0
	if f.Rates != nil {
		step = f.Rates.Interval
	}
	for i := range f.Snapshot.Processlist {
		p := &f.Snapshot.Processlist[i]
		if p.Command != "Query" && p.Command != "Execute" || strings.TrimSpace(p.Info) == "" {
			continue
		}
		fp := snapshot.Fingerprint(p.Info)
		st, ok := a[fp]
		if !ok {
			if len(a) >= maxStatements {
				continue
			}
			st = &Statement{Fingerprint: fp, Example: truncate(p.Info, 300)}
			a[fp] = st
		}
		st.Seen++
		st.Seconds += step
		st.MaxSeconds = max(st.MaxSeconds, float64(p.TimeMS)/1000)
	}
}

// top returns the n statements that ran longest and the n seen most often.
func (a statementAcc) top(n int) (byTime, byCount []Statement) {
	all := make([]Statement, 0, len(a))
	for _, s := range a {
		all = append(all, *s)
	}
	byTime = append([]Statement(nil), all...)
	sort.Slice(byTime, func(i, j int) bool {
		if byTime[i].Seconds != byTime[j].Seconds {
			return byTime[i].Seconds > byTime[j].Seconds
		}
		return byTime[i].Fingerprint < byTime[j].Fingerprint
	})
	byCount = all
	sort.Slice(byCount, func(i, j int) bool {
		if byCount[i].Seen != byCount[j].Seen {
			return byCount[i].Seen > byCount[j].Seen
		}
		return byCount[i].Fingerprint < byCount[j].Fingerprint
	})
	return byTime[:min(n, len(byTime))], byCount[:min(n, len(byCount))]
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
