package collectors

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

func TestLivePausedServerIsUnreachableAndNextKeepsTime(t *testing.T) {
	// Serial: judges when Next returns against the tick, to the 100 ms.
	srv := testdb.Start(t)
	const interval = 300 * time.Millisecond
	l := newLive(t, rootOptions(srv), interval, nil)
	awaitHealthy(t, l)

	srv.Pause(t)
	pausedAt := time.Now()
	sawDown := false
	for i := 0; i < 4; i++ {
		s := next(t, l)
		// Returning before the next tick is due is what keeps ticks from
		// overlapping and the dashboard live.
		if took := time.Since(s.Time); took >= interval {
			t.Errorf("tick %d: Next returned %v after its tick, interval %v", i, took, interval)
		}
		if s.Server.Unreachable {
			if !sawDown && time.Since(pausedAt) > 2*interval+150*time.Millisecond {
				t.Errorf("first unreachable snapshot %v after the pause, want within 2 intervals", time.Since(pausedAt))
			}
			sawDown = true
			if s.Server.DownSince.IsZero() || s.Server.Error == "" || s.Status != nil {
				t.Errorf("unreachable snapshot: %+v status=%v", s.Server, s.Status != nil)
			}
			if st := s.Collectors[snapshot.CollectorStatus]; !st.Stale || st.Error == "" {
				t.Errorf("status state %+v", st)
			}
		}
	}
	if !sawDown {
		t.Fatal("a paused server never showed as unreachable")
	}

	srv.Resume(t)
	for i := 0; i < 20; i++ {
		s := next(t, l)
		if !s.Server.Unreachable && s.Status != nil {
			if !s.Server.DownSince.IsZero() {
				t.Errorf("DownSince kept after recovery: %v", s.Server.DownSince)
			}
			return
		}
	}
	t.Fatal("never recovered after resume")
}

func TestLiveReconnectsAfterRestart(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	if err := l.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := awaitHealthy(t, l)
	up1, _ := first.Uptime()

	srv.Stop(t)
	s := next(t, l)
	if !s.Server.Unreachable {
		s = next(t, l)
	}
	if !s.Server.Unreachable || s.Server.Error == "" {
		t.Fatalf("stopped server: %+v", s.Server)
	}
	if strings.Contains(s.Server.Error, "root@") {
		t.Errorf("error names credentials: %q", s.Server.Error)
	}
	srv.Restart(t)
	for i := 0; i < 30; i++ {
		s = next(t, l)
		if !s.Server.Unreachable && s.Status != nil && s.Collectors[snapshot.CollectorVariables].Error == "" {
			up2, _ := s.Uptime()
			if up2 > up1+1 || !s.VariablesChanged && s.Variables == nil {
				t.Errorf("uptime %d -> %d, variables %v", up1, up2, s.Variables != nil)
			}
			if s.Collectors[snapshot.CollectorInnoDB].Stale || s.InnoDB == nil {
				t.Errorf("after reconnect every collector must run: %+v", s.Collectors[snapshot.CollectorInnoDB])
			}
			return
		}
	}
	t.Fatalf("never reconnected after restart: %+v", s.Server)
}

func TestLiveKill(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	const q = "SELECT SLEEP(20) /* kill me */"
	done := make(chan error, 1)
	go func() { _, err := openDB(t, srv.DSN("")).Exec(q); done <- err }()
	target := runningTarget(t, l, q)
	// On a loaded machine a tick that timed out leaves a session the monitor
	// gave up on, counted against its cap until the next ticks end it; the
	// kill is tested once only the sampling session is held.
	for end := time.Now().Add(10 * time.Second); l.link.ownSessions(time.Now()) > 1 && time.Now().Before(end); {
		next(t, l)
	}
	ctx := context.Background()
	if own := l.link.ownIDs(); len(own) == 0 {
		t.Error("no own thread known after sampling")
	} else if self := (snapshot.KillTarget{ID: own[0], Mode: snapshot.ModeLive}); l.Kill(ctx, self, true) == nil {
		t.Error("killing the monitor's own connection must be refused")
	}
	if err := l.Kill(ctx, target, false); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done: // SLEEP returns 1 when its query is killed
	case <-time.After(5 * time.Second):
		t.Fatal("KILL QUERY did not stop the statement")
	}
	if p, ok := threadRunning(next(t, l), q); ok {
		t.Errorf("killed query still listed: %+v", p)
	}
	for _, p := range next(t, l).Processlist {
		if p.ID == l.link.actionID.Load() {
			t.Error("the on-demand connection is not hidden")
		}
	}
}

// awaitHealthy samples until a tick where every collector ran fresh; a
// loaded machine may need a few.
func awaitHealthy(t *testing.T, l *Live) *snapshot.Snapshot {
	t.Helper()
	for i := 0; i < 10; i++ {
		s := next(t, l)
		if !s.Server.Unreachable && allFresh(s) {
			return s
		}
	}
	t.Fatal("the server never answered a whole tick")
	return nil
}

func allFresh(s *snapshot.Snapshot) bool {
	for _, st := range s.Collectors {
		if st.Stale {
			return false
		}
	}
	return true
}
