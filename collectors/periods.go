package collectors

import "time"

// period is a live collector that runs on a period of its own: the flag
// that sets it, its default, and the LiveOptions field that holds it. The
// flags (AddLiveFlags), the defaults (withDefaults) and the options a fleet
// member is built with (LiveFlags.Build) are all made from periods, so a new
// periodic collector is its LiveOptions field, one line here, and its entry
// in Live.schedule (which must implement carry: TestEveryPeriodicCollectorCarriesItsPart).
type period struct {
	flag  string
	def   time.Duration // 0: every tick unless the collector adapts (adaptivePeriod)
	usage string
	of    func(*LiveOptions) *time.Duration
}

var periods = []period{
	{"innodb-interval", 5 * time.Second, "how often to read SHOW ENGINE INNODB STATUS",
		func(o *LiveOptions) *time.Duration { return &o.InnoDBEvery }},
	{"variables-interval", 10 * time.Second, "how often to check variables for changes",
		func(o *LiveOptions) *time.Duration { return &o.VariablesEvery }},
	{"replica-interval", 0, "how often to read replica status (default: every tick; every 30 s while the server is no replica)",
		func(o *LiveOptions) *time.Duration { return &o.ReplicaEvery }},
	{"statements-interval", 5 * time.Second, "how often to read the statement digests (performance_schema)",
		func(o *LiveOptions) *time.Duration { return &o.StatementsEvery }},
}
