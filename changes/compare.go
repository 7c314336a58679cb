package changes

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Thresholds of what counts as moved. No public source sets them: they are
// chosen so a steady server compared with itself lists nothing (the trap: the
// ±50 % a busy server's rates wander by minute to minute, and the noise of
// rates near zero).
const (
	// A status counter moved when it changed by this factor either way and
	// ran at statusFloor per second or more in one of the windows.
	statusFactor = 3
	statusFloor  = 1.0
	// A gauge moved when its average changed by this factor and reached
	// gaugeFloor in one of the windows.
	gaugeFactor = 2
	gaugeFloor  = 2.0
	// maxStatus bounds the status changes listed: past the first few dozen
	// they echo the same change (every Handler_* of one new scan).
	maxStatus = 25
	// A statement regressed when its latency or rows examined per call grew
	// by this factor, both windows having minCalls calls.
	statementFactor = 2
	minCalls        = 3
	// A user, host or schema changed when its share of active sessions
	// moved by mixPoints percentage points, over minWorking session-seconds
	// in each window.
	mixPoints  = 20
	minWorking = 5
	// A wait class moved when its average active sessions changed ×2 and
	// reached loadFloor in one window: half a session is where a class
	// starts to matter on a 2-core server.
	loadFactor = 2
	loadFloor  = 0.5
)

// volatile variables change by themselves on a healthy server.
var volatile = []string{"gtid_", "timestamp", "last_insert_id", "pseudo_thread_id", "rand_seed", "warning_count", "error_count"}

// Compare lists what moved from before (healthy) to after (incident),
// biggest first.
func Compare(before, after *Window) []Change {
	var out []Change
	out = append(out, variableChanges(before, after)...)
	out = append(out, statusChanges(before, after)...)
	out = append(out, statementChanges(before, after)...)
	out = append(out, mixChanges(before, after)...)
	out = append(out, loadChanges(before, after)...)
	out = append(out, hostChanges(before, after)...)
	sortBiggestFirst(out)
	if out == nil {
		out = []Change{}
	}
	return out
}

func variableChanges(before, after *Window) []Change {
	var out []Change
	for name, v := range after.vars {
		old, ok := before.vars[name]
		if !ok || old == v || isVolatile(name) {
			continue
		}
		out = append(out, Change{Kind: KindVariable, Name: name, Before: old, After: v,
			When: after.varSince[name], score: scoreVariable})
	}
	return out
}

func isVolatile(name string) bool {
	for _, p := range volatile {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func statusChanges(before, after *Window) []Change {
	var out []Change
	if before.seconds > 0 && after.seconds > 0 {
		for name := range union(before.counters, after.counters) {
			b, a := before.counters[name]/before.seconds, after.counters[name]/after.seconds
			if c, ok := moved(KindStatus, name, "per second", b, a, statusFloor, statusFactor); ok {
				out = append(out, c)
			}
		}
	}
	if before.gaugeFrames > 0 && after.gaugeFrames > 0 {
		for name := range union(before.gauges, after.gauges) {
			if name == "Uptime" || strings.HasPrefix(name, "Uptime_") {
				continue
			}
			b, a := before.gauges[name]/float64(before.gaugeFrames), after.gauges[name]/float64(after.gaugeFrames)
			if c, ok := moved(KindStatus, name, "average", b, a, gaugeFloor, gaugeFactor); ok {
				out = append(out, c)
			}
		}
	}
	sortBiggestFirst(out)
	return out[:min(len(out), maxStatus)]
}

// moved compares two figures: floor keeps rates near zero from making
// factors of nothing, and it is what a side under it counts as.
func moved(kind Kind, name, what string, b, a, floor, factor float64) (Change, bool) {
	if max(a, b) < floor {
		return Change{}, false
	}
	score := factorScore(max(a, floor) / max(b, floor))
	if score < factorScore(factor) {
		return Change{}, false
	}
	return Change{Kind: kind, Name: name, What: what, Before: round(b), After: round(a),
		Factor: ratio(b, a), score: score}, true
}

func union(a, b map[string]float64) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// statementChanges matches the windows' statements by shape and names a
// change by the after window's text. A window of sampled statements thus
// compares with one of digests too; their per-call figures do not compare
// (sampling sees only the runs that last, and not to their end), so only
// a new statement is told across sources.
func statementChanges(before, after *Window) []Change {
	bs, as := before.statements(), after.statements()
	var out []Change
	for shape, a := range as.byShape {
		b, seen := bs.find(shape)
		if !seen {
			if a.CallsPerS*after.span() >= minCalls || a.LatencySPerS > 0.05 {
				out = append(out, Change{Kind: KindStatement, Name: a.Fingerprint, What: "new, calls per second",
					Before: 0.0, After: round(a.CallsPerS), score: scoreNewStatement + a.LatencySPerS})
			}
			continue
		}
		if b.Source != a.Source || b.CallsPerS*before.span() < minCalls || a.CallsPerS*after.span() < minCalls {
			continue
		}
		fp := a.Fingerprint
		out = append(out, perCall(fp, "latency per call (s)", b.AvgLatencyS, a.AvgLatencyS)...)
		out = append(out, perCall(fp, "rows examined per call", b.RowsExaminedPerS/b.CallsPerS, a.RowsExaminedPerS/a.CallsPerS)...)
	}
	return out
}

// perCall is one regression of a statement's per-call figure, or none.
func perCall(fp, what string, b, a float64) []Change {
	if b <= 0 || a/b < statementFactor {
		return nil
	}
	return []Change{{Kind: KindStatement, Name: fp, What: what, Before: round(b), After: round(a),
		Factor: ratio(b, a), score: factorScore(a / b)}}
}

// span is the window's length in seconds, at least one.
func (w *Window) span() float64 {
	return max(w.To.Sub(w.From).Seconds(), 1)
}

func mixChanges(before, after *Window) []Change {
	if before.working < minWorking || after.working < minWorking {
		return nil
	}
	var out []Change
	for key := range union(before.mix, after.mix) {
		b, a := 100*before.mix[key]/before.working, 100*after.mix[key]/after.working
		d := a - b
		if d < mixPoints && -d < mixPoints {
			continue
		}
		out = append(out, Change{Kind: KindMix, Name: key, What: "share of active sessions (%)",
			Before: round(b), After: round(a), Factor: ratio(b, a), score: factorScore(max(a, 1) / max(b, 1))})
	}
	return out
}

func loadChanges(before, after *Window) []Change {
	if before.loadSeconds <= 0 || after.loadSeconds <= 0 {
		return nil
	}
	var out []Change
	for i := range before.load {
		c := snapshot.WaitClass(i)
		b, a := before.load[i]/before.loadSeconds, after.load[i]/after.loadSeconds
		if ch, ok := moved(KindLoad, c.String(), "average active sessions", b, a, loadFloor, loadFactor); ok {
			out = append(out, ch)
		}
	}
	return out
}
