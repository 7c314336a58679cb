package visibility

import (
	"sort"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Report is what check prints: who the monitor is, what it sees, and each
// blind spot with its cost and fix.
type Report struct {
	Server  string  `json:"server"`
	Account Account `json:"account"`
	// Sees lists the sources that answered.
	Sees []string `json:"sees"`
	// Blind lists each source the monitor cannot read, biggest cost first.
	Blind []Spot `json:"blind"`
	// RulesBlind is every rule some blind spot stops, sorted.
	RulesBlind []string `json:"rules_blind"`
}

// BlindToRules is whether a rule cannot run for want of a source: check's
// exit status says it.
func (r Report) BlindToRules() bool { return len(r.RulesBlind) > 0 }

// Build assembles the report from the frames the real collectors and
// engine made on this server, and the spots check probed itself.
func Build(frames []*snapshot.Frame, a Account, probed []Spot) Report {
	r := Report{Account: a, Sees: []string{}, Blind: []Spot{}, RulesBlind: []string{}}
	if last := lastFrame(frames); last != nil {
		r.Server = last.Snapshot.Server.Address
		if r.Account.Version == "" {
			r.Account.Version, r.Account.Flavor = last.Snapshot.Server.Version, last.Snapshot.Server.Flavor
		}
		if r.Account.Managed == "" {
			r.Account.Managed = managedFrom(last.Snapshot.Variables, users(last.Snapshot))
		}
	}
	spots := append(collectorSpots(frames), probed...)
	blind := map[string]bool{}
	rules := map[string]bool{}
	for _, s := range spots {
		s.Fix = fixFor(s, r.Account)
		if s.Panels == nil {
			s.Panels = panelsOf(s.Source)
		}
		r.Blind = append(r.Blind, s)
		blind[s.Source] = true
		for _, id := range s.Rules {
			rules[id] = true
		}
	}
	sort.SliceStable(r.Blind, func(i, j int) bool { return len(r.Blind[i].Rules) > len(r.Blind[j].Rules) })
	r.RulesBlind = append(r.RulesBlind, sortedKeys(rules)...)
	r.Sees = append(r.Sees, seen(frames, blind)...)
	return r
}

func lastFrame(frames []*snapshot.Frame) *snapshot.Frame {
	for i := len(frames) - 1; i >= 0; i-- {
		if frames[i] != nil && frames[i].Snapshot != nil {
			return frames[i]
		}
	}
	return nil
}

func users(s *snapshot.Snapshot) []string {
	var out []string
	for _, p := range s.Processlist {
		out = append(out, p.User)
	}
	return out
}

// seen lists the collectors that ran in any frame and are not blind.
func seen(frames []*snapshot.Frame, blind map[string]bool) []string {
	ran := map[string]bool{}
	for _, f := range frames {
		if f == nil || f.Snapshot == nil {
			continue
		}
		for name, st := range f.Snapshot.Collectors {
			if st.Error == "" && !blind[string(name)] {
				ran[string(name)] = true
			}
		}
	}
	return sortedKeys(ran)
}
