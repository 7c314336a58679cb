package busynormal

import (
	"context"
	"fmt"
)

// Fault is one thing that goes wrong on the busy server, for a while.
type Fault struct {
	// Name is short and stable: the timeline and the replays key on it.
	Name string
	// Cause is the cause class the monitor must name first, in the JSON
	// contract's words ("cpu outside mysqld", "disk", "locks", ...).
	Cause string
	// Inject does the fault until ctx ends (the fault's duration).
	Inject func(ctx context.Context, b *Bed) error
	// Recover undoes what outlives Inject (an index dropped); nil: nothing.
	Recover func(b *Bed) error
	// Unavailable says why this machine cannot inject it; nil: it always can.
	Unavailable func(b *Bed) string
	// Felt says what did not move as the fault must move it, comparing the
	// fault's window with the normal before it; "" when the server felt it.
	Felt func(normal, during Effect) string
}

// Family is every fault, in the order they run on one server: those that
// leave the server as it was first, the network last (its clients' backlog
// drains after it).
func Family() []Fault {
	return []Fault{cpuHog, diskHog, rateDoubled, scanStatement, indexDropped, lockConvoy, flushStorm,
		logicalDump, restoreDump, slowNetwork}
}

// Named returns the faults of Family with these names, in Family's order.
func Named(names ...string) []Fault {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []Fault
	for _, f := range Family() {
		if want[f.Name] {
			out = append(out, f)
			delete(want, f.Name)
		}
	}
	if len(want) > 0 {
		panic(fmt.Sprintf("busynormal: no fault named %v", want))
	}
	return out
}

// rose says "" when after is at least factor times before plus floor, else
// what it was.
func rose(what string, before, after, factor, floor float64) string {
	if after >= before*factor+floor {
		return ""
	}
	return fmt.Sprintf("%s %.1f -> %.1f (wanted at least x%.1f + %g)", what, before, after, factor, floor)
}

// fell says "" when after is at most factor times before.
func fell(what string, before, after, factor float64) string {
	if after <= before*factor {
		return ""
	}
	return fmt.Sprintf("%s %.1f -> %.1f (wanted at most x%.2f)", what, before, after, factor)
}
