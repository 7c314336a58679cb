package collectors

import (
	"context"
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/snapshot"
)

// sampleDB fills the database parts of s, reconnecting when due, and marks
// the server unreachable when it answered nothing this tick.
func (l *Live) sampleDB(ctx context.Context, s *snapshot.Snapshot) {
	s.Server.Address = l.address
	defer l.fillOwnSessions(s)
	defer l.fillLogin(s)
	if l.rotate {
		l.rotate = false
		l.closeSession()
	}
	reconnecting := l.link.session() == nil
	if !l.ensureSession(ctx, s.Time) {
		l.side.policy.observe(false, 0)
		l.markAllStale(s, "not connected: "+l.lastErr)
		l.markDown(s)
		return
	}
	// A slow connect leaves too little of the tick: sampling now would time
	// out and reconnect again, round after round.
	if reconnecting && timeLeft(ctx) < statementBudget(l.opts.Interval)/2 {
		l.markAllStale(s, "connected during this tick; sampling starts with the next")
		l.fillServer(s)
		l.downSince = time.Time{}
		return
	}
	l.startSide(ctx, s.Time)
	run := runDB(ctx, l.entries, l.prev, s, l.opts.Interval)
	l.fillServer(s)
	if run.lost == nil {
		if err := l.tend(ctx, s); err != nil {
			run.lost, run.tending = err, true
		}
	}
	l.endSide(ctx, s, run)
	if run.lost == nil {
		l.downSince = time.Time{}
		l.backoff = 0 // every statement of the tick succeeded
		return
	}
	l.dropSession(s.Time)
	l.lastErr = describeLost(run)
	l.retryLater(s.Time)
	if !run.answered {
		l.markDown(s)
	}
}

// retryLater grows the backoff and sets the next connection attempt. Half
// a tick of slack keeps a tick's jitter from skipping an attempt.
func (l *Live) retryLater(now time.Time) {
	l.backoff = min(max(2*l.backoff, l.opts.Interval), l.opts.MaxBackoff)
	l.retryAt = now.Add(l.backoff - l.opts.Interval/2)
}

// ensureSession reconnects when there is no session, the backoff allows and
// the monitor's sessions on the server are under the cap. The login runs
// beyond the tick when it must (login_pending.go): this tick waits for it
// within its own budget.
func (l *Live) ensureSession(ctx context.Context, now time.Time) bool {
	if l.link.session() != nil {
		return true
	}
	if l.login == nil {
		if now.Before(l.retryAt) && !l.gate.pendingAsk() {
			return false
		}
		if !l.link.reserve(now) {
			l.lastErr = errSessionCap.Error()
			l.retryLater(now)
			return false
		}
		l.login = startLogin(l.db, l.settings, loginPatience(l.opts.Interval))
	}
	p := l.login
	if !p.ended(ctx) {
		l.lastErr = fmt.Sprintf("logging in: no answer for %s yet", time.Since(p.began).Round(100*time.Millisecond))
		return false
	}
	l.login = nil
	if _, err := l.opened(p.res); err != nil {
		switch st := l.gate.state(now); {
		case st.reason != "":
			l.lastErr = "login refused: " + connopt.DescribeConnError(st.cause, l.address, l.unencryptedTCP) + "; " + st.next
		default:
			l.lastErr = connopt.DescribeConnError(err, l.address, l.unencryptedTCP)
		}
		l.retryLater(now)
		return false
	}
	return true
}

// open opens a sampling session within the cap on the monitor's sessions,
// within ctx, and adopts it.
func (l *Live) open(ctx context.Context, now time.Time) (*session, error) {
	if !l.link.reserve(now) {
		return nil, errSessionCap
	}
	return l.opened(login(ctx, l.db, l.settings))
}

// opened takes the outcome of a login begun with a reserved slot: a session
// that logged in but failed on the way is an orphan. The slot passes to the
// session in one step: released first, the on-demand connection could take
// it meanwhile, one session over the cap.
func (l *Live) opened(r loginResult) (*session, error) {
	if r.err != nil {
		orphansOfOpen(&l.link, &l.greeted, r.began, 0, r.id, r.err)
		l.link.release()
		return nil, r.err
	}
	orphansOfOpen(&l.link, &l.greeted, r.began, r.sess.ID, 0, nil)
	l.gate.setLimit(r.limit)
	l.link.adoptReserved(r.sess)
	l.adopt(r.sess)
	return r.sess, nil
}

// tend does the session's housekeeping after a tick's reads succeeded: it
// kills the orphans the processlist showed (once each, over this session:
// a separate connection per KILL would be one more stuck thread per tick
// on a stuck server), probes again capabilities a passing failure hid, and
// notices a GRANT. Only a transport error is returned.
func (l *Live) tend(ctx context.Context, s *snapshot.Snapshot) error {
	sess := l.link.session()
	if sess.serverStart.IsZero() {
		sess.serverStart = serverStartOf(s)
	}
	kills := l.link.takeKills()
	for i, id := range kills {
		if timeLeft(ctx) < statementBudget(l.opts.Interval)/4 {
			l.link.putBackKills(kills[i:])
			break
		}
		_, err := sess.conn.Conn.ExecContext(ctx, fmt.Sprintf("%sKILL CONNECTION %d", tag, id))
		switch {
		case err == nil:
			// Gone once the processlist no longer lists it.
		case serverErrno(err) == errUnknownThread || serverErrno(err) == errNotOwner:
			l.link.forgetOrphan(id)
		case serverErrno(err) == 0:
			return fmt.Errorf("KILL of a session left over: %w", err)
		}
	}
	if timeLeft(ctx) < statementBudget(l.opts.Interval)/2 {
		return nil
	}
	if sess.Caps.reprobe && s.Time.Sub(sess.probedAt) >= reprobeAfter {
		caps := sess.Caps
		if err := caps.probe(ctx, sess.conn.Conn, sess.ID); err != nil {
			return err
		}
		sess.Caps, sess.probedAt = caps, s.Time
		l.caps = caps
		l.sharedCaps.Store(&caps)
		return nil
	}
	if !sess.grantsAt.IsZero() && s.Time.Sub(sess.grantsAt) >= grantsRecheck {
		changed, err := sess.grantsChanged(ctx)
		if err != nil {
			return err
		}
		l.rotate = changed
	}
	return nil
}

const (
	// reprobeAfter is how soon capabilities hidden by a passing failure
	// (a killed probe, a full temporary disk) are probed again.
	reprobeAfter = 5 * time.Second
	// grantsRecheck is how often a session missing a privilege compares the
	// account's grants, so a GRANT given mid-incident is used within a minute.
	grantsRecheck = refusalTTL
	errNotOwner   = 1095
)

func (l *Live) fillServer(s *snapshot.Snapshot) {
	s.Server.Version, s.Server.Flavor = l.caps.Version, l.caps.Flavor
}

// fillLogin says whether the server refuses the monitor's logins, and when
// it tries again.
func (l *Live) fillLogin(s *snapshot.Snapshot) {
	st := l.gate.state(s.Time)
	s.Server.LoginRefused, s.Server.LoginRetry = st.reason, st.retryAt
}

// markDown flags s as a tick the server did not answer.
func (l *Live) markDown(s *snapshot.Snapshot) {
	l.fillServer(s)
	if l.downSince.IsZero() {
		l.downSince = s.Time
	}
	s.Server.Unreachable = true
	s.Server.Error = l.lastErr
	s.Server.DownSince = l.downSince
}

func (l *Live) markAllStale(s *snapshot.Snapshot, why string) {
	for _, e := range l.entries {
		markSkipped(e, l.prev, s, why)
	}
}

// dropSession abandons the sampling connection. The server may still hold
// the session (a stalled link) or run its statement (a timeout), so it is
// an orphan until the processlist shows it gone.
func (l *Live) dropSession(now time.Time) {
	if sess := l.link.abandonSession(now); sess != nil {
		sess.abandon()
	}
}

// closeSession ends a working sampling session cleanly (COM_QUIT), to open
// a new one.
func (l *Live) closeSession() {
	sess := l.link.session()
	l.link.setSession(nil)
	sess.abandon()
}

// fillOwnSessions says how many sessions the server may hold for the
// monitor, and whether that is its cap.
func (l *Live) fillOwnSessions(s *snapshot.Snapshot) {
	now := time.Now()
	s.Server.OwnSessions = l.link.ownSessions(now)
	if limit := l.link.capAt(now); s.Server.OwnSessions >= limit {
		s.Server.OwnSessionsCap = limit
	}
}
