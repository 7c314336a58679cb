package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestReadAheadEvicted(t *testing.T) {
	ra := func(pages, evicted float64) edit {
		return counters(map[string]float64{raPages: pages, raEvicted: evicted})
	}
	runTimelines(t, IDReadAheadEvicted, DefaultConfig(), []timelineCase{
		{"half evicted", series(10, ra(1000, 500)), "....iiiWWW"},
		// A scan reads ahead in bursts: seconds of 0 between seconds of
		// 60-100 pages, evicted unused all along (the loaded run that named
		// it after 11.6 s when each second was judged alone).
		{"bursts of read-ahead, half of it evicted", series(10, bursts(raPages, 1e6, 80, 0, 60), bursts(raEvicted, 1e6, 40, 30, 30),
			vars("innodb_buffer_pool_size", "6291456", "innodb_page_size", "16384")), "....iiiWWW"},
		{"a burst of waste in a quiet minute is not a thrash", series(11, bursts(raPages, 1e6, 0, 0, 0, 1000, 0, 0, 0, 0, 0, 0),
			bursts(raEvicted, 1e6, 0, 0, 0, 1000, 0, 0, 0, 0, 0, 0)), ".....iiii.."},
		{"5 % evicted", series(8, ra(1000, 50)), "........"},
		{"little read-ahead", series(8, ra(20, 20)), "........"},
		{"not reported", series(2), "NN"},
		// A 6M pool reads ahead 16 pages at a time: 40 pages/s is judged.
		{"small pool, half of 40 pages/s evicted", series(10, ra(40, 20), vars("innodb_buffer_pool_size", "6291456",
			"innodb_page_size", "16384")), "....iiiWWW"},
		{"large pool, 40 pages/s is below one 64-page area", series(8, ra(40, 20),
			vars("innodb_buffer_pool_size", "134217728", "innodb_page_size", "16384")), "........"},
	})
	f := lastFinding(t, DefaultConfig(), series(9, ra(1000, 500), vars("innodb_read_ahead_threshold", "0",
		"innodb_random_read_ahead", "ON")), IDReadAheadEvicted)
	mustContain(t, f, "50 % of 1,000 pages/s", "innodb_read_ahead_threshold=0", "from 0 towards 64",
		"innodb_random_read_ahead = OFF")
}

// bursts grows a counter by per[i % len(per)] in the interval ending at frame i.
func bursts(name string, base float64, per ...float64) edit {
	return func(i int, s *snapshot.Snapshot) {
		v := base
		for j := 1; j <= i; j++ {
			v += per[j%len(per)]
		}
		s.Status[name] = fmt.Sprint(v)
	}
}
