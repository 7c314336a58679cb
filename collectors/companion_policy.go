package collectors

import (
	"slices"
	"time"
)

// companionPolicy decides when the companion session pays for itself: only
// when the status and processlist reads cost the server enough that running
// them side by side shortens the tick (at 5,000 connections each takes
// 9-40 ms; at 1,000 about 3 ms together, not worth a session), and only on
// a server that has been answering in time for a while. After trouble it
// waits much longer before opening one again: a server in trouble sees the
// monitor's sessions fall back to the ones it had without a companion.
type companionPolicy struct {
	// pays is the median of the two reads' sum over the last companionWindow
	// healthy ticks at or above which a companion is opened; one open is
	// closed again below half of it.
	pays time.Duration
	// calm is how many healthy ticks in a row come before an open, and
	// afterTrouble how many after trouble; window is how many ticks the
	// median is taken over (companionWindow; tests shorten them).
	calm, afterTrouble, window int

	recent   []time.Duration // the last healthy ticks' sums, oldest first
	quiet    int             // healthy ticks in a row
	troubled bool            // trouble since the last open
}

const (
	companionWindow  = 10
	companionPays    = 15 * time.Millisecond
	companionCalm    = 30
	companionBackoff = 5 * time.Minute
)

func newCompanionPolicy(interval time.Duration) companionPolicy {
	return companionPolicy{pays: companionPays, calm: companionCalm, window: companionWindow,
		afterTrouble: max(companionCalm, int(companionBackoff/interval))}
}

// observe records a tick: healthy when every statement of it answered and
// neither read was slow; reads is its status and processlist reads' time,
// summed. A tick in trouble (an error, a timeout, a slow read), with a
// companion or without, means no companion before afterTrouble healthy
// ticks: a flaky link or server should not see a second session at all.
func (p *companionPolicy) observe(healthy bool, reads time.Duration) {
	if !healthy {
		p.quiet, p.troubled = 0, true
		return
	}
	p.quiet++
	p.recent = append(p.recent, reads)
	if len(p.recent) > p.window {
		p.recent = p.recent[1:]
	}
}

// opened records that a companion was opened: the trouble before it is
// forgotten.
func (p *companionPolicy) opened() { p.troubled = false }

// wantOpen reports whether a companion would pay now.
func (p *companionPolicy) wantOpen() bool {
	need := p.calm
	if p.troubled {
		need = p.afterTrouble
	}
	return p.quiet >= need && len(p.recent) == p.window && p.median() >= p.pays
}

// wantClose reports whether the reads became cheap enough that an open
// companion no longer pays (half the threshold, so a server near it does
// not open and close one by turns).
func (p *companionPolicy) wantClose() bool {
	return len(p.recent) == p.window && p.median() < p.pays/2
}

func (p *companionPolicy) median() time.Duration {
	if len(p.recent) == 0 {
		return 0
	}
	s := slices.Clone(p.recent)
	slices.Sort(s)
	return s[len(s)/2]
}
