package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// waitFreeBursts adds burst waits at the listed snapshot indexes.
func waitFreeBursts(burst float64, idx ...int) edit {
	return func(i int, s *snapshot.Snapshot) {
		var sum float64
		for _, k := range idx {
			if k <= i {
				sum += burst
			}
		}
		s.Status[bpWaitFree] = fmt.Sprint(5000 + sum) // an old event stays in the cumulative value
	}
}

func TestBufferPoolWaitFree(t *testing.T) {
	runTimelines(t, IDBufferPoolWaitFree, DefaultConfig(), []timelineCase{
		{"a rise warns at once", series(4, waitFreeBursts(16, 2)), "..WW"},
		{"bursts a few seconds apart hold it", series(12, waitFreeBursts(20, 2, 6, 10)), "..WWWWWWWWWW"},
		{"clears 5 intervals after the rise leaves the window", series(24, waitFreeBursts(20, 2)), "..WWWWWWWWWWWWWWWWWWW..."},
		{"an old cumulative value alone is quiet", series(6, waitFreeBursts(0)), "......"},
		{"restart: quiet while the server warms up", series(6, waitFreeBursts(20, 3), restartAt(3)), "......"},
		{"not reported", series(2), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(6, waitFreeBursts(16, 2, 4), status("Innodb_buffer_pool_pages_free", "0",
		"Innodb_buffer_pool_pages_total", "379", "Innodb_buffer_pool_pages_dirty", "370"),
		vars("innodb_io_capacity", "100", "innodb_io_capacity_max", "100", "innodb_max_dirty_pages_pct", "90")),
		IDBufferPoolWaitFree)
	mustContain(t, f, "waited for a free buffer pool page 32 times in the last 5 intervals",
		"rose in 2 of the last 5 intervals", "free pages 0 of 379", "dirty pages 370 of 379 (98 %)",
		"innodb_io_capacity=100, innodb_io_capacity_max=100", "innodb_io_capacity (now 100)")
}
