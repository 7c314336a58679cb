package analyzers

import "testing"

func TestBinlogCacheSpill(t *testing.T) {
	txns := func(use, disk float64) edit {
		return counters(map[string]float64{blCacheUse: use, blCacheDisk: disk})
	}
	on := vars("log_bin", "ON", "binlog_cache_size", "32768")
	runTimelines(t, IDBinlogCacheSpill, DefaultConfig(), []timelineCase{
		{"half the transactions spill", series(8, txns(200, 100), on), "...iiWWW"},
		{"5 % spill", series(8, txns(200, 10), on), "........"},
		{"one batch a second", series(8, txns(1, 0.5), on), "........"},
		{"binary log off", series(2, txns(200, 100), vars("log_bin", "OFF")), "NN"},
		{"not reported", series(2), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(7, txns(200, 100), on, vars("tmpdir", "/tmp")), IDBinlogCacheSpill)
	mustContain(t, f, "100 transactions/s (50 %)", "binlog_cache_size=32K", "tmpdir=/tmp", "from 32K to 128K")
}
