package collectors

import "time"

// The companion sampling session (companion.go) is the one session the cap
// on the monitor's own sessions makes room for: while it is open, or left
// over from a stall and still counted, the cap is maxOwnSessions+1, so the
// sampling session, the on-demand one and one being ended keep the slots
// they had without it. Nothing else ever takes the extra slot, and the
// companion is opened only while no session left over is known, so at most
// one companion is ever being ended.

// limit is the cap on the monitor's sessions at now; l.mu held.
func (l *serverLink) limit(now time.Time) int {
	if l.companionOpen() {
		return maxOwnSessions + 1
	}
	for _, o := range l.orphans {
		if o.companion && now.Before(o.until) {
			return maxOwnSessions + 1
		}
	}
	return maxOwnSessions
}

// companionOpen says the companion session is open: its id is set while it
// is, under l.mu, and read without it by ownIDs.
func (l *serverLink) companionOpen() bool { return l.companionID.Load() > 0 }

// capAt is limit for callers without l.mu.
func (l *serverLink) capAt(now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit(now)
}

// reserveCompanion takes the companion's slot: only while no session left
// over is known, and within maxOwnSessions+1. release gives it back.
func (l *serverLink) reserveCompanion(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.companionOpen() || len(l.orphans) > 0 || l.held(now) >= maxOwnSessions+1 {
		return false
	}
	l.opening++
	return true
}

// hasOrphans reports whether a session left over is known.
func (l *serverLink) hasOrphans() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.orphans) > 0
}

// setCompanion counts the companion session id as open.
func (l *serverLink) setCompanion(id int64) {
	l.mu.Lock()
	l.companionID.Store(id)
	l.mu.Unlock()
}

// endCompanion uncounts the companion; left over (a statement in flight, a
// link that may not carry its goodbye) it becomes an orphan that keeps the
// companion's slot while it counts.
func (l *serverLink) endCompanion(now time.Time, leftOver bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := l.companionID.Swap(0)
	if !leftOver || id <= 0 {
		return
	}
	if l.orphans == nil {
		l.orphans = map[int64]*orphan{}
	}
	l.orphans[id] = &orphan{since: now, until: now.Add(l.patience), serverStart: l.serverStart, companion: true}
}
