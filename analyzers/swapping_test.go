package analyzers

import "testing"

func TestSwapping(t *testing.T) {
	runTimelines(t, IDSwapping, ruleLogic(IDSwapping), []timelineCase{
		{"pages swapped out", series(5, swap(0, 120, 30)), "...WW"},
		{"swap nearly full while swapping", series(4, swap(50, 120, 90)), "...C"},
		{"swap used but idle is harmless", series(4, swap(0, 0, 90)), "...."},
		{"remote server", series(2, remote), "NN"},
	})
	f := lastFinding(t, ruleLogic(IDSwapping), series(4, swap(10, 120, 30), vars("innodb_buffer_pool_size", "6442450944")),
		IDSwapping)
	mustContain(t, f, "host is swapping: 130 pages/s", "swap in 10 pages/s, out 120 pages/s", "swap used 30 %",
		"innodb_buffer_pool_size=6.0G", "swappiness")
}
