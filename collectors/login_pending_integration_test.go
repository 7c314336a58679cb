package collectors

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// A login slower than a tick's budget still gets through: the server runs
// init_connect (DO SLEEP(0.7)) for the monitoring account, so every login
// takes over 0.7 s, and the monitor samples every 500 ms (400 ms of budget).
// Its session is killed; the reconnection must carry over ticks and sample
// again, with one login under way at a time, not one a tick. Cut at each
// tick's budget, as before, no login ever finished.
func TestLiveLoginSlowerThanATickGetsThrough(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--init-connect=DO SLEEP(0.7)", "--userstat=1")
	srv.Exec(t, "CREATE USER 'mon'@'localhost' IDENTIFIED BY 'pw'", "GRANT PROCESS ON *.* TO 'mon'@'localhost'")
	var log lockedBuffer
	live := buildFromFlags(t, &log, "--no-defaults", "--socket", srv.Socket, "--user", "mon", "--password", "pw", "--interval", "500ms")
	defer live.Close()
	tickUntil(t, live, 10*time.Second, "a first sample", func(s *snapshot.Snapshot) bool { return !s.Server.Unreachable })

	before := loginsOf(t, srv, "mon")
	srv.KillSessionsOf(t, "mon")
	lost := tickUntil(t, live, 5*time.Second, "the lost session", func(s *snapshot.Snapshot) bool { return s.Server.Unreachable })
	var underWay bool
	back := tickUntil(t, live, 15*time.Second, "a sample after the slow login", func(s *snapshot.Snapshot) bool {
		underWay = underWay || strings.HasPrefix(s.Server.Error, "logging in: no answer for")
		return !s.Server.Unreachable
	})
	logins := loginsOf(t, srv, "mon") - before
	t.Logf("lost at %s (%s); sampling again %s later; %d logins meanwhile", lost.Time.Format("15:04:05.000"),
		lost.Server.Error, back.Time.Sub(lost.Time).Round(10*time.Millisecond), logins)
	if !underWay {
		t.Error("no tick said a login was under way: the login did not outlast a tick, the test proves nothing")
	}
	// One login carried over ticks; one a tick would be several.
	if logins != 1 {
		t.Errorf("%d logins to get one session back: want one, carried over ticks", logins)
	}
}

// loginsOf is how many times user has logged in (userstat's count).
func loginsOf(t *testing.T, srv *testdb.Server, user string) int {
	t.Helper()
	var n int
	err := srv.DB(t).QueryRow("SELECT TOTAL_CONNECTIONS FROM information_schema.USER_STATISTICS WHERE USER = ?", user).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
