package collectors

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// period is a live collector that runs on a period the DBA may set: the
// flag that sets it, its default, and the LiveOptions field that holds it.
// The flags (AddLiveFlags), the defaults (withDefaults) and the options a
// fleet member is built with (LiveFlags.Build) are all made from periods,
// which is made from snapshot.Parts: a collector's period is its row's
// Every, and a row with a Flag needs its LiveOptions field in
// periodOptions (TestEveryPeriodFlagHasItsOption).
type period struct {
	flag  string
	def   time.Duration // 0: every tick unless the collector adapts (adaptivePeriod)
	usage string
	of    func(*LiveOptions) *time.Duration
}

// periodOptions are the LiveOptions fields the period flags set.
var periodOptions = map[snapshot.CollectorName]func(*LiveOptions) *time.Duration{
	snapshot.CollectorInnoDB:     func(o *LiveOptions) *time.Duration { return &o.InnoDBEvery },
	snapshot.CollectorVariables:  func(o *LiveOptions) *time.Duration { return &o.VariablesEvery },
	snapshot.CollectorReplica:    func(o *LiveOptions) *time.Duration { return &o.ReplicaEvery },
	snapshot.CollectorStatements: func(o *LiveOptions) *time.Duration { return &o.StatementsEvery },
}

var periods = periodsOf(snapshot.Parts)

func periodsOf(parts []snapshot.Part) []period {
	var out []period
	for _, p := range parts {
		if p.Flag == "" {
			continue
		}
		of, ok := periodOptions[p.Collector]
		if !ok {
			panic(fmt.Sprintf("collectors: %s has the flag -%s but no LiveOptions field in periodOptions", p.Collector, p.Flag))
		}
		out = append(out, period{p.Flag, p.Every, p.FlagUsage, of})
	}
	return out
}

// timed gives each scheduled collector its period: the option its flag
// sets, or its row's fixed Every. A collector without a row in parts has no
// place in a frame (nothing masks its text, no capture says it is missing)
// and is refused (TestEveryScheduledCollectorHasAPart).
func (o *LiveOptions) timed(entries []*scheduled, parts []snapshot.Part) ([]*scheduled, error) {
	rows := make(map[snapshot.CollectorName]snapshot.Part, len(parts))
	for _, p := range parts {
		rows[p.Collector] = p
	}
	for _, e := range entries {
		p, ok := rows[e.c.Name()]
		if !ok {
			return nil, fmt.Errorf("collector %s has no row in snapshot.Parts", e.c.Name())
		}
		e.every = p.Every
		if of, ok := periodOptions[p.Collector]; ok {
			e.every = *of(o)
		}
	}
	return entries, nil
}
