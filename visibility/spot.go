package visibility

import (
	"sort"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Spot is one thing the monitor cannot see.
type Spot struct {
	// Source is the collector (or probe) that is blind.
	Source string `json:"source"`
	// Why is what the server or the monitor said.
	Why string `json:"why"`
	// Panels are the parts of the dashboard that show less or nothing.
	Panels []string `json:"panels"`
	// Rules are the findings that cannot run, by ID.
	Rules []string `json:"rules,omitempty"`
	// Fix is the GRANT or setting that ends the blind spot; empty when
	// nothing the server's users can do ends it (a remote host's /proc).
	Fix string `json:"fix,omitempty"`
}

// panelsOf names what a source feeds on screen, so a blind spot says what
// the DBA loses in words they see on the dashboard: a collector's from its
// row of snapshot.Parts, a probe's from probePanels.
func panelsOf(src string) []string {
	if p, ok := snapshot.PartOf(snapshot.CollectorName(src)); ok {
		return p.Panels
	}
	return probePanels[src]
}

// probePanels are what the probe-only sources feed.
var probePanels = map[string][]string{
	srcMetadataLocks: {"lock tree (metadata lock holders are inferred from the processlist)"},
	srcKill:          {"kill keys (k, K) on other users' sessions"},
}

// Probe-only sources: read by the collectors only when something happens,
// so check asks them itself.
const (
	srcMetadataLocks = "metadata_locks"
	srcKill          = "kill"
)

// collectorSpots lists every collector that said it cannot run in any of
// frames, with the rules the engine marked not applicable for it.
func collectorSpots(frames []*snapshot.Frame) []Spot {
	why := map[string]string{}
	rules := map[string]map[string]bool{}
	for _, f := range frames {
		if f == nil || f.Snapshot == nil {
			continue
		}
		for name, st := range f.Snapshot.Collectors {
			if st.Unavailable != "" {
				why[string(name)] = st.Unavailable
			}
		}
		for id, reason := range f.NotApplicable {
			src, ok := blindingSource(reason)
			if !ok {
				continue
			}
			if rules[src] == nil {
				rules[src] = map[string]bool{}
			}
			rules[src][id] = true
		}
	}
	var out []Spot
	for src, w := range why {
		out = append(out, Spot{Source: src, Why: w, Panels: panelsOf(src), Rules: sortedKeys(rules[src])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}

// blindingSource reads the collector out of a rule's not-applicable reason
// ("processlist collector unavailable: …", as analyzers word it).
func blindingSource(reason string) (string, bool) {
	src, _, ok := strings.Cut(reason, " collector unavailable: ")
	return src, ok
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
