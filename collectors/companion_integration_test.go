package collectors

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// The delay the proxy adds to every statement in these tests: a server
// whose status and processlist reads each take that long, as MariaDB's do
// at many thousand connections, without holding them.
const sideDelay = 150 * time.Millisecond

// sideInterval leaves the tick's budget room for a login across the delay
// (four round trips) after both reads.
const sideInterval = 1500 * time.Millisecond

// sideLive is a live source across a stall proxy, as its own user, with
// the costlier periodic sources out of the way (each is a delay more) and
// the companion's calm spell and median taken over three ticks.
func sideLive(t *testing.T, srv *testdb.Server, user string) (*Live, *stallProxy) {
	t.Helper()
	srv.Exec(t, "CREATE USER IF NOT EXISTS '"+user+"'@'127.0.0.1'", "GRANT PROCESS ON *.* TO '"+user+"'@'127.0.0.1'")
	proxy := newStallProxy(t, srv.Addr())
	host, port := splitHostPort(t, proxy.addr())
	l := newLive(t, connopt.Options{Host: host, Port: port, User: user, PasswordSet: true}, sideInterval,
		func(o *LiveOptions) {
			o.NoThreadStats = true
			o.InnoDBEvery, o.VariablesEvery, o.StatementsEvery = time.Hour, time.Hour, time.Hour
		})
	l.side.policy.calm, l.side.policy.window = 3, 3
	return l, proxy
}

// pairTime is what the status and processlist reads took of the tick.
func pairTime(s *snapshot.Snapshot) time.Duration {
	return s.Collectors[snapshot.CollectorStatus].Latency + s.Collectors[snapshot.CollectorProcesslist].Latency
}

// noOwnRows fails when a processlist row is one of the monitor's sessions
// (the only sessions of its user).
func noOwnRows(t *testing.T, s *snapshot.Snapshot, user string) {
	t.Helper()
	for _, p := range s.Processlist {
		if p.User == user {
			t.Errorf("the monitor's own session %d (%s) shows in the processlist", p.ID, p.Command)
		}
	}
}

// awaitCompanion ticks until a companion is open.
func awaitCompanion(t *testing.T, l *Live, user string) {
	t.Helper()
	for i := 0; i < 10 && l.side.comp == nil; i++ {
		noOwnRows(t, next(t, l), user)
	}
	if l.side.comp == nil {
		t.Fatalf("no companion opened (median %v of %d ticks)", l.side.policy.median(), len(l.side.policy.recent))
	}
}

func medianOf(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// With every answer 150 ms late, the status and processlist reads take
// two delays one after the other and one side by side.
func TestLiveCompanionReadsBesideStatus(t *testing.T) {
	// Serial: compares read times, which other tests' load on the shared server moves.
	srv := sharedServer(t)
	const user = "side_by_side"
	l, proxy := sideLive(t, srv, user)
	awaitHealthy(t, l)
	proxy.setDelay(sideDelay)
	l.side.off = true
	next(t, l) // the first tick across the delay may still carry a periodic read
	var one, two []time.Duration
	for i := 0; i < 5; i++ {
		s := next(t, l)
		noOwnRows(t, s, user)
		if l.side.comp != nil || s.Server.OwnSessions != 1 {
			t.Fatalf("one session asked for: companion %v, own sessions %d", l.side.comp != nil, s.Server.OwnSessions)
		}
		one = append(one, pairTime(s))
	}
	l.side.off = false
	awaitCompanion(t, l, user)
	for i := 0; i < 5; i++ {
		s := next(t, l)
		noOwnRows(t, s, user)
		if l.side.comp == nil || s.Server.OwnSessions != 2 {
			t.Fatalf("tick %d: companion %v, own sessions %d", i, l.side.comp != nil, s.Server.OwnSessions)
		}
		if !allFresh(s) {
			t.Errorf("tick %d not fresh: %+v", i, s.Collectors)
		}
		two = append(two, pairTime(s))
	}
	t.Logf("status+processlist with %v per answer: one session %v, with the companion %v (median of 5)", sideDelay, one, two)
	if m := medianOf(one); m < 2*sideDelay-sideDelay/5 {
		t.Errorf("one session: median %v, want about two delays", m)
	}
	if m := medianOf(two); m > sideDelay+sideDelay/2 {
		t.Errorf("with the companion: median %v, want about one delay", m)
	}
}

// On a small server the reads take a few milliseconds: a companion would
// not pay, and none is opened. On a host so loaded that even these reads
// take companionPays (CI once measured a median of 15.4 ms, one of 43 ms,
// at load 11 on 2 cores) the policy may open one, rightly: then it must be
// for that reason, and the monitor must still hold at most two sessions.
func TestLiveNoCompanionAtRest(t *testing.T) {
	// Serial: a companion opens on slow reads, and other tests' load on the shared server slows them.
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), 200*time.Millisecond, nil)
	var reads []time.Duration
	for i := 0; i < companionCalm+15; i++ {
		s := next(t, l)
		if s.Server.OwnSessions > 2 {
			t.Fatalf("tick %d: %d own sessions", i, s.Server.OwnSessions)
		}
		if l.side.comp != nil {
			if m := l.side.policy.median(); m < companionPays {
				t.Fatalf("tick %d: a companion at rest with reads of median %v (%v)", i, m, l.side.policy.recent)
			}
			t.Logf("tick %d: the reads took a median of %v on this loaded host: a companion opened", i,
				l.side.policy.median())
			return
		}
		// The first ticks may still see a session an earlier test on the
		// shared server is closing (CI: 2 at tick 1).
		if i >= 5 && s.Server.OwnSessions > 1 {
			t.Fatalf("tick %d: %d own sessions without a companion", i, s.Server.OwnSessions)
		}
		reads = append(reads, pairTime(s))
	}
	t.Logf("status+processlist at rest: median %v", medianOf(reads))
}

// A companion killed by someone else: the tick reads the processlist on the
// sampling session instead, fresh, and the companion is closed; the kill
// counts as trouble, so none reopens within the back-off.
func TestLiveCompanionKilledFallsBackToOneSession(t *testing.T) {
	// Serial: a companion opens on slow reads, and other tests' load on the shared server slows them.
	srv := sharedServer(t)
	const user = "side_killed"
	l, proxy := sideLive(t, srv, user)
	awaitHealthy(t, l)
	proxy.setDelay(sideDelay)
	awaitCompanion(t, l, user)
	srv.Exec(t, fmt.Sprintf("KILL CONNECTION %d", l.side.comp.id))
	s := next(t, l)
	noOwnRows(t, s, user)
	if st := s.Collectors[snapshot.CollectorProcesslist]; st.Error != "" || st.Stale || len(s.Processlist) == 0 {
		t.Errorf("the tick after the kill: processlist %+v, %d rows", st, len(s.Processlist))
	}
	if l.side.comp != nil || l.link.companionID.Load() != 0 {
		t.Error("the killed companion is still in use")
	}
	for i := 0; i < 5; i++ {
		if next(t, l); l.side.comp != nil {
			t.Fatalf("a companion reopened %d ticks after trouble", i+1)
		}
	}
}
