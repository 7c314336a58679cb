package collectors

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The UI's KILL asks ownIDs while the tick goroutine replaces the sampling
// session after a timeout; run with -race.
func TestOwnIDsWhileTheSessionIsReplaced(t *testing.T) {
	var link serverLink
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := int64(1); i <= 1000; i++ {
			link.setSession(&session{ID: i})
			link.setSession(nil)
		}
	}()
	for i := 0; i < 1000; i++ {
		for _, id := range link.ownIDs() {
			if id <= 0 {
				t.Fatalf("own id %d", id)
			}
		}
	}
	wg.Wait()
}

// The monitor's sessions on one server are capped: the sampling session,
// orphans (sessions given up on) until the server's processlist shows them
// gone or their own timeouts must have ended them, and connections being
// opened all count.
func TestLinkCapsTheMonitorsSessions(t *testing.T) {
	t0 := time.Unix(1000, 0)
	start := t0.Add(-time.Hour)
	link := serverLink{user: "mon", patience: 20 * time.Second}
	link.sawProcesses(nil, start, t0) // the server's start, as a tick reads it
	link.setSession(&session{ID: 10})
	link.addOrphan(11, t0)
	if !link.reserve(t0) {
		t.Fatal("2 held: a third must be allowed")
	}
	link.release()
	link.addOrphan(12, t0)
	if link.reserve(t0) {
		t.Fatal("3 held: the cap must refuse a fourth")
	}
	if n := link.ownSessions(t0); n != maxOwnSessions {
		t.Errorf("held %d", n)
	}
	// The processlist lists 11 (ours) and 12 under another user: 12's id was
	// reused, so it is forgotten, and 11 is killed, once.
	rows := []snapshot.Process{{ID: 10, User: "mon"}, {ID: 11, User: "mon"}, {ID: 12, User: "app"}}
	link.sawProcesses(rows, start, t0.Add(time.Second))
	if k := link.takeKills(); !slices.Equal(k, []int64{11}) {
		t.Errorf("kills %v, want [11]", k)
	}
	link.sawProcesses(rows, start, t0.Add(2*time.Second))
	if k := link.takeKills(); len(k) != 0 {
		t.Errorf("a second KILL for the same orphan: %v", k)
	}
	if ids := link.ownIDs(); !slices.Contains(ids, 11) || slices.Contains(ids, 12) {
		t.Errorf("own ids %v: 11 is still ours, 12 is not", ids)
	}
	// An orphan not seen stops counting once its timeouts must have ended it;
	// one still there after its KILL is stuck, and counts for longer.
	link.setSession(nil)
	link.addOrphan(14, t0.Add(2*time.Second))
	if n := link.ownSessions(t0.Add(23 * time.Second)); n != 1 {
		t.Errorf("held %d after 23 s, want 1 (11, stuck after its KILL)", n)
	}
	if n := link.ownSessions(t0.Add(2*time.Second + stuckPatience)); n != 0 {
		t.Errorf("held %d after %v, want 0", n, stuckPatience)
	}
	// After a restart thread ids start again: orphans of the old server are
	// forgotten, never killed.
	link.addOrphan(13, t0.Add(3*time.Second))
	restarted := t0.Add(5 * time.Second)
	link.sawProcesses([]snapshot.Process{{ID: 11, User: "mon"}, {ID: 13, User: "mon"}}, restarted, t0.Add(6*time.Second))
	if k := link.takeKills(); len(k) != 0 || link.ownSessions(t0.Add(6*time.Second)) != 0 {
		t.Errorf("after a restart: kills %v, held %d", k, link.ownSessions(t0.Add(6*time.Second)))
	}
}

// The backoff grows over repeated losses up to MaxBackoff, and a new
// session does not reset it: only a tick whose statements all succeeded.
func TestBackoffGrowsOverRepeatedTimeouts(t *testing.T) {
	l := &Live{opts: LiveOptions{Interval: time.Second, MaxBackoff: 5 * time.Second}}
	now := time.Unix(1000, 0)
	var got []time.Duration
	for range 5 {
		l.retryLater(now)
		got = append(got, l.backoff)
		l.adopt(&session{ID: 1}) // a login that works, then the next read times out
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	if !slices.Equal(got, want) {
		t.Errorf("backoff %v, want %v", got, want)
	}
}
