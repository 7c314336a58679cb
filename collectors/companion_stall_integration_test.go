package collectors

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// A link that stops answering while the companion is open: the companion is
// dropped on the stall's first tick, left over with the sampling session
// and nothing more, the server never holds more than the companion's cap of
// the monitor's sessions, sampling resumes on one session when the link
// returns, and no companion opens again within the back-off.
func TestLiveCompanionDroppedInAStall(t *testing.T) {
	// Serial: a companion opens on slow reads, and other tests' load on the shared server slows them.
	srv := sharedServer(t)
	const user = "side_stall"
	l, proxy := sideLive(t, srv, user)
	const backoff = 12 // healthy ticks; the calm spell is 3
	l.side.policy.afterTrouble = backoff
	awaitHealthy(t, l)
	proxy.setDelay(sideDelay)
	awaitCompanion(t, l, user)
	comp := l.side.comp.id

	// The server's view, ten times a second: the user's sessions.
	admin := openDB(t, srv.DSN(""))
	var mu sync.Mutex
	most, seen := 0, map[int64]bool{}
	watchCtx, stop := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for tick := time.NewTicker(100 * time.Millisecond); watchCtx.Err() == nil; <-tick.C {
			ids, err := testdb.SessionsOf(admin, user)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			most = max(most, len(ids))
			for _, id := range ids {
				seen[id] = true
			}
			mu.Unlock()
		}
	}()
	defer func() { stop(); <-watched }()

	proxy.stall()
	for i := 0; i < 4; i++ {
		s := next(t, l)
		if took := time.Since(s.Time); took >= sideInterval {
			t.Errorf("stalled tick %d: Next took %v", i, took)
		}
		if l.side.comp != nil {
			t.Fatalf("stalled tick %d: the companion is still open", i)
		}
		if n := companionOrphans(&l.link); n > 1 {
			t.Errorf("stalled tick %d: %d companions left over", i, n)
		}
	}
	if !containsID(l.link.ownIDs(), comp) {
		t.Error("the companion cut by the stall is not counted as left over")
	}
	// A login across the delay (its probe is a dozen statements) would not
	// fit in a tick: the link returns without it, then slows again.
	proxy.setDelay(0)
	proxy.resume()
	var s *snapshot.Snapshot
	for i := 0; i < 10 && (s == nil || s.Server.Unreachable || !allFresh(s)); i++ {
		s = next(t, l)
	}
	if s.Server.Unreachable || !allFresh(s) {
		t.Fatalf("sampling never resumed after the link returned: %s", s.Server.Error)
	}
	if s.Server.OwnSessions > maxOwnSessions+1 || l.side.comp != nil {
		t.Errorf("resumed: own sessions %d, companion %v", s.Server.OwnSessions, l.side.comp != nil)
	}
	proxy.setDelay(sideDelay)
	healthy := 0
	for ; l.side.comp == nil && healthy < backoff+8; healthy++ {
		s := next(t, l)
		noOwnRows(t, s, user)
		if s.Server.OwnSessions > maxOwnSessions+1 {
			t.Errorf("own sessions %d", s.Server.OwnSessions)
		}
	}
	t.Logf("companion reopened after %d healthy ticks (back-off %d, calm %d)", healthy, backoff, l.side.policy.calm)
	if healthy < backoff-2 {
		t.Errorf("the companion reopened after %d healthy ticks, within the back-off of %d", healthy, backoff)
	}
	if l.side.comp == nil {
		t.Error("the companion never reopened after the back-off")
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("most of the monitor's sessions the server held at once: %d (%d in all)", most, len(seen))
	if most > maxOwnSessions+1 {
		t.Errorf("the server held %d of the monitor's sessions, want at most %d", most, maxOwnSessions+1)
	}
}

// companionOrphans counts the companions left over that still count.
func companionOrphans(l *serverLink) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, o := range l.orphans {
		if o.companion {
			n++
		}
	}
	return n
}
