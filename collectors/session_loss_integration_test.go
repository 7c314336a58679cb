package collectors

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// slowStatement runs DO SLEEP(1) on the sampling session while on is set:
// one real statement that outlasts a 500-ms tick, after the status and the
// processlist answered, as SHOW ENGINE INNODB STATUS does on a starved server.
type slowStatement struct {
	link *serverLink
	on   atomic.Bool
}

func (c *slowStatement) Name() snapshot.CollectorName { return "slow_statement" }

func (c *slowStatement) Collect(ctx context.Context, _ *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil || !c.on.Load() {
		return nil
	}
	_, err := sess.conn.ExecContext(ctx, "DO SLEEP(1)")
	return err
}

// One statement that runs out of the tick costs the session, not the
// server's answer: the first backoff (one interval, less half a tick of
// slack) ends before the next tick, which opens a session and samples, and
// no frame says the server is down. A second loss before a whole tick
// succeeds backs off further (a frame without a session), so a server that
// hangs one statement is not sent a new session every tick; those frames
// say the server is down, which a loaded full run showed for up to 5 s.
func TestLiveOneSlowStatementIsNoOutage(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	l := newLive(t, rootOptions(srv), 500*time.Millisecond, func(o *LiveOptions) { o.MaxBackoff = 5 * time.Second })
	slow := &slowStatement{link: &l.link}
	l.entries = append(l.entries, &scheduled{c: slow})
	awaitHealthy(t, l)

	slow.on.Store(true)
	lost := next(t, l)
	slow.on.Store(false)
	if lost.Server.Unreachable || !strings.Contains(lost.Collectors["slow_statement"].Error, "timed out") {
		t.Fatalf("the slow tick: down %v (%q), slow_statement %+v", lost.Server.Unreachable, lost.Server.Error,
			lost.Collectors["slow_statement"])
	}
	sampled := false
	for i := range 4 {
		s := next(t, l)
		if s.Server.Unreachable {
			t.Errorf("tick %d after the loss says the server is down: %s", i+1, s.Server.Error)
		}
		sampled = sampled || allFresh(s)
	}
	if !sampled {
		t.Error("no whole tick sampled in the four after the loss")
	}

	// Twice in a row: the second loss backs off.
	slow.on.Store(true)
	next(t, l)
	var down *snapshot.Snapshot
	for range 2 {
		if s := next(t, l); s.Server.Unreachable && down == nil {
			down = s
		}
	}
	slow.on.Store(false)
	if down == nil {
		t.Error("lost twice in a row, the monitor opened a session every tick: want a backoff")
	} else {
		t.Logf("after the second loss: %s", down.Server.Error)
	}
}
