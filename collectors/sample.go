package collectors

import (
	"context"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/snapshot"
)

// sampleDB fills the database parts of s, reconnecting when due, and marks
// the server unreachable when it answered nothing this tick.
func (l *Live) sampleDB(ctx context.Context, s *snapshot.Snapshot) {
	s.Server.Address = l.address
	reconnecting := l.link.sess == nil
	if !l.ensureSession(ctx, s.Time) {
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
	run := runDB(ctx, l.entries, l.prev, s, l.opts.Interval)
	l.fillServer(s)
	if run.lost == nil {
		l.downSince = time.Time{}
		return
	}
	l.dropSession(run.timedOut != "")
	l.lastErr = describeLost(run)
	l.retryAt = s.Time // first retry on the next tick
	if !run.answered {
		l.markDown(s)
	}
}

// ensureSession reconnects when there is no session and the backoff allows.
func (l *Live) ensureSession(ctx context.Context, now time.Time) bool {
	if l.link.sess != nil {
		return true
	}
	if now.Before(l.retryAt) {
		return false
	}
	sess, err := openSession(ctx, l.db)
	if err != nil {
		l.lastErr = connopt.DescribeConnError(err, l.address, l.unencryptedTCP)
		l.backoff = min(max(2*l.backoff, l.opts.Interval), l.opts.MaxBackoff)
		l.retryAt = now.Add(l.backoff)
		return false
	}
	l.adopt(sess)
	return true
}

func (l *Live) fillServer(s *snapshot.Snapshot) {
	s.Server.Version, s.Server.Flavor = l.caps.Version, l.caps.Flavor
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

// dropSession abandons the sampling connection. After a timeout the server
// thread may still be running our statement, so it is killed.
func (l *Live) dropSession(timedOut bool) {
	sess := l.link.sess
	l.link.sess = nil
	if sess == nil {
		return
	}
	sess.abandon()
	if timedOut {
		l.link.killAbandoned(l.db, sess.ID, 2*l.opts.Interval)
	}
}
