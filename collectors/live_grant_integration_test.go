package collectors

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/snapshot"
)

// A GRANT given mid-incident is picked up within a minute: PROCESS is a
// global privilege, which a session keeps as it was at login, so the
// monitor must notice the grant and log in again.
func TestLiveGrantMidRunIsPickedUpWithinAMinute(t *testing.T) {
	t.Parallel()
	srv := sharedServer(t)
	const user = "late_grant"
	srv.Exec(t, "CREATE USER IF NOT EXISTS '"+user+"'@'localhost'", "GRANT USAGE ON *.* TO '"+user+"'@'localhost'")
	l := newLive(t, connopt.Options{Socket: srv.Socket, User: user, PasswordSet: true}, time.Second,
		func(o *LiveOptions) { o.NoThreadStats = true })
	gap := func(s *snapshot.Snapshot) bool {
		return s.Collectors[snapshot.CollectorProcesslist].Unavailable != "" ||
			s.Collectors[snapshot.CollectorInnoDB].Unavailable != ""
	}
	var s *snapshot.Snapshot
	for i := 0; i < 10; i++ {
		if s = next(t, l); !s.Server.Unreachable && gap(s) {
			break
		}
	}
	if !gap(s) {
		t.Fatalf("without PROCESS, the processlist and InnoDB must say what is missing: %+v", s.Collectors)
	}
	srv.Exec(t, "GRANT PROCESS ON *.* TO '"+user+"'@'localhost'")
	granted := time.Now()
	for time.Since(granted) < 75*time.Second {
		s = next(t, l)
		if !s.Server.Unreachable && !gap(s) && s.InnoDB != nil {
			took := time.Since(granted)
			t.Logf("GRANT PROCESS picked up after %v", took.Round(100*time.Millisecond))
			if took > time.Minute {
				t.Errorf("GRANT picked up after %v, want within a minute", took)
			}
			return
		}
	}
	t.Fatalf("GRANT PROCESS not picked up in 75 s: %+v", s.Collectors)
}
