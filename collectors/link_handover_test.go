package collectors

import (
	"testing"
	"time"
)

// Each change of how a session counts is one step: the count a reserve on
// another goroutine sees never drops while a session is still held.
func TestLinkHandoverKeepsTheCount(t *testing.T) {
	now := time.Unix(1000, 0)
	link := serverLink{user: "mon", patience: time.Minute}
	steps := []struct {
		name string
		do   func()
		held int
	}{
		{"sampling session reserved", func() { link.reserve(now) }, 1},
		{"sampling session adopted", func() { link.adoptReserved(&session{ID: 7}) }, 1},
		{"action connection reserved", func() { link.reserve(now) }, 2},
		{"action connection opened", func() { link.actionOpened(8) }, 2},
		{"action connection lost", func() { link.actionLost(now) }, 2},
		{"sampling session abandoned", func() { link.abandonSession(now) }, 2},
	}
	for _, s := range steps {
		s.do()
		if got := link.ownSessions(now); got != s.held {
			t.Fatalf("after %s: %d sessions counted, want %d", s.name, got, s.held)
		}
	}
	if link.opening != 0 || link.session() != nil || link.actionID.Load() != 0 {
		t.Errorf("left: opening %d, session %v, action id %d", link.opening, link.session(), link.actionID.Load())
	}
	if ids := link.ownIDs(); len(ids) != 2 {
		t.Errorf("own ids %v, want the two orphans 7 and 8", ids)
	}
}
