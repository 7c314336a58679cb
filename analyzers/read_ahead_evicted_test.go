package analyzers

import "testing"

func TestReadAheadEvicted(t *testing.T) {
	ra := func(pages, evicted float64) edit {
		return counters(map[string]float64{raPages: pages, raEvicted: evicted})
	}
	runTimelines(t, IDReadAheadEvicted, DefaultConfig(), []timelineCase{
		{"half evicted", series(8, ra(1000, 500)), ".....WWW"},
		{"5 % evicted", series(8, ra(1000, 50)), "........"},
		{"little read-ahead", series(8, ra(20, 20)), "........"},
		{"not reported", series(2), "NN"},
		// A 6M pool reads ahead 16 pages at a time: 40 pages/s is judged.
		{"small pool, half of 40 pages/s evicted", series(8, ra(40, 20), vars("innodb_buffer_pool_size", "6291456",
			"innodb_page_size", "16384")), ".....WWW"},
		{"large pool, 40 pages/s is below one 64-page area", series(8, ra(40, 20),
			vars("innodb_buffer_pool_size", "134217728", "innodb_page_size", "16384")), "........"},
	})
	f := lastFinding(t, DefaultConfig(), series(7, ra(1000, 500), vars("innodb_read_ahead_threshold", "0",
		"innodb_random_read_ahead", "ON")), IDReadAheadEvicted)
	mustContain(t, f, "50 % of 1,000 pages/s", "innodb_read_ahead_threshold=0", "from 0 towards 64",
		"innodb_random_read_ahead = OFF")
}
