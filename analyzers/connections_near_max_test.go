package analyzers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestConnectionsNearMax(t *testing.T) {
	connected := func(n int) edit { return status("Threads_connected", fmt.Sprint(n)) }
	runTimelines(t, IDConnectionsNearMax, ruleLogic(IDConnectionsNearMax), []timelineCase{
		{"90 % of max_connections", series(4, connected(136)), "..WW"},
		{"half used", series(4, connected(75)), "...."},
		{"connections refused", series(4, connected(151), counter(refused, 10, 3)), "..CC"},
		{"no max_connections variable", series(2, func(_ int, s *snapshot.Snapshot) {
			delete(s.Variables, "max_connections")
		}), "NN"},
		{"status-only capture", series(3, func(_ int, s *snapshot.Snapshot) { s.Variables = nil }), "..."},
	})
	snaps := series(3, connected(140), status("Max_used_connections", "151"), procs(sleeping(1, "app"),
		sleeping(2, "app"), query(3, 1, "Sending data", "SELECT 1"), sleeping(4, "web")))
	f := lastFinding(t, ruleLogic(IDConnectionsNearMax), snaps, IDConnectionsNearMax)
	mustContain(t, f, "140 of 151 connections in use (93 %)", "Max_used_connections 151",
		"by user: app 3 (2 Sleep), web 1 (1 Sleep)", "pool")
}

// TestConnectionsNearMaxHolds: with the shipped config, at 93 % (the next
// burst is "Too many connections") it warns within 3 s; at 83 % it waits
// 30 s, at info meanwhile, so a pool's deploy-time opening passes.
func TestConnectionsNearMaxHolds(t *testing.T) {
	connected := func(n int) edit { return status("Threads_connected", fmt.Sprint(n)) }
	runTimelines(t, IDConnectionsNearMax, DefaultConfig(), []timelineCase{
		{"140 of 151 in use", series(6, connected(140)), "iiWWWW"},
		{"125 of 151 in use", series(32, connected(125)), strings.Repeat("i", 29) + "WWW"},
		{"a pool opens to 85 % for 3 s", series(20, connected(75), during(5, 8, connected(128))),
			".....iii" + strings.Repeat("i", 9) + "..."},
		{"half used", series(6, connected(75)), "......"},
	})
}
