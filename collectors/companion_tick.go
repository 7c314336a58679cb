package collectors

import (
	"context"
	"errors"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// startSide starts the tick's processlist read on the companion, if one is
// open for the current sampling session and the tick reads the list before
// its status says whether it needs to (processlist.aheadDue).
func (l *Live) startSide(ctx context.Context, now time.Time) {
	c := l.side.comp
	if c == nil {
		return
	}
	if sess := l.link.session(); c.of != sess {
		l.closeCompanion(time.Now(), false)
		return
	}
	if !l.side.procs.aheadDue(now) {
		return
	}
	l.side.procs.readAhead(ctx, c.conn, c.of.Caps)
}

// endSide judges the tick once every collector ran: trouble closes the
// companion, reads that became cheap close it, and costly reads on a
// healthy server open one for the next tick.
func (l *Live) endSide(ctx context.Context, s *snapshot.Snapshot, run dbRun) {
	ahead := l.side.procs.settleAhead()
	healthy := run.lost == nil && l.readsInTime(s, ahead)
	if !healthy {
		// Left over when the link may not carry its goodbye or a statement
		// of its own was cut short.
		leftOver := run.lost != nil || ahead != nil && connectionLost(ahead.err)
		l.closeCompanion(s.Time, leftOver)
	}
	l.side.policy.observe(healthy, s.Collectors[snapshot.CollectorStatus].Latency+l.side.procs.took)
	switch {
	case l.side.comp != nil && l.side.policy.wantClose():
		l.closeCompanion(s.Time, false)
	case l.side.comp == nil && l.mayOpenCompanion(ctx):
		if err := l.openCompanion(ctx, s.Time); err == nil {
			l.side.policy.opened()
		} else if !errors.Is(err, errSessionCap) {
			l.side.policy.observe(false, 0)
		}
	}
}

// readsInTime reports whether the status and processlist reads both
// answered, and within half the budget each: a slower one means a server
// (or link) in trouble, where the monitor keeps to one session.
func (l *Live) readsInTime(s *snapshot.Snapshot, ahead *aheadRead) bool {
	slow := statementBudget(l.opts.Interval) / 2
	st, ps := s.Collectors[snapshot.CollectorStatus], s.Collectors[snapshot.CollectorProcesslist]
	if st.Error != "" || ps.Error != "" || st.Latency > slow || l.side.procs.took > slow {
		return false
	}
	return ahead == nil || ahead.err == nil && ahead.took <= slow
}

// mayOpenCompanion: the policy wants one, the option allows it, nothing
// left over is known and the tick has time for the login.
func (l *Live) mayOpenCompanion(ctx context.Context) bool {
	return !l.side.off && l.side.policy.wantOpen() && !l.link.hasOrphans() &&
		timeLeft(ctx) >= statementBudget(l.opts.Interval)/2
}
