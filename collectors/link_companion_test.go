package collectors

import (
	"slices"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The companion takes the one slot the cap adds for it, and only it: the
// others keep the three they had, a companion left over keeps its slot
// while it counts, and no companion opens while anything is left over.
func TestLinkCompanionSlot(t *testing.T) {
	t0 := time.Unix(1000, 0)
	start := t0.Add(-time.Hour)
	link := serverLink{user: "mon", patience: 20 * time.Second}
	link.sawProcesses(nil, start, t0)
	link.setSession(&session{ID: 10})
	if !link.reserve(t0) {
		t.Fatal("no slot for the on-demand connection")
	}
	link.actionOpened(11)
	if !link.reserveCompanion(t0) {
		t.Fatal("sampling and on-demand open, nothing left over: the companion must fit")
	}
	link.setCompanion(13)
	link.release()
	if link.reserveCompanion(t0) {
		t.Error("a second companion")
	}
	if !slices.Contains(link.ownIDs(), 13) {
		t.Error("the companion is not among the monitor's own threads")
	}
	// One left over from before: the others have their third slot, then no more.
	link.addOrphan(11, t0)
	if link.reserve(t0) {
		t.Fatalf("4 held with the companion: the others must not take a fifth (cap %d)", link.capAt(t0))
	}
	link.endCompanion(t0, true)
	if n, c := link.ownSessions(t0), link.capAt(t0); n != 4 || c != maxOwnSessions+1 {
		t.Errorf("companion left over: held %d of %d, want 4 of %d", n, c, maxOwnSessions+1)
	}
	if link.reserve(t0) || link.reserveCompanion(t0) {
		t.Error("at the companion's cap nothing opens")
	}
	if link.companionID.Load() != 0 || !slices.Contains(link.ownIDs(), 13) {
		t.Error("the companion left over must stay hidden, as an orphan")
	}
	// The companion gone from the server, 11 not yet: the cap is back to three.
	link.sawProcesses([]snapshot.Process{{ID: 10, User: "mon"}, {ID: 11, User: "mon"}}, start, t0.Add(time.Second))
	if c := link.capAt(t0.Add(time.Second)); c != maxOwnSessions {
		t.Errorf("cap %d without a companion, want %d", c, maxOwnSessions)
	}
	if link.reserveCompanion(t0.Add(time.Second)) {
		t.Error("11 is still left over: no companion")
	}
}

func TestLinkCompanionClosedCleanlyLeavesNothing(t *testing.T) {
	t0 := time.Unix(1000, 0)
	link := serverLink{user: "mon", patience: 20 * time.Second}
	link.setSession(&session{ID: 10})
	link.setCompanion(13)
	link.endCompanion(t0, false)
	if n, c := link.ownSessions(t0), link.capAt(t0); n != 1 || c != maxOwnSessions || link.hasOrphans() {
		t.Errorf("held %d of %d, orphans %v", n, c, link.hasOrphans())
	}
}
