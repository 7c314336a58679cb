package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

const mb = 1 << 20

// mysqldMem makes mysqld's resident size start at startMB and grow growMB a
// second, taken from the host's available memory (availMB at the start).
func mysqldMem(startMB, growMB, availMB, totalMB uint64) edit {
	return func(i int, s *snapshot.Snapshot) {
		h := hostOf(s)
		grown := growMB * uint64(i)
		h.Mysqld = &snapshot.ProcessCPU{PID: 4242, RSSBytes: (startMB + grown) * mb}
		h.MemTotal, h.MemAvailable = totalMB*mb, (availMB-min(grown, availMB))*mb
	}
}

// cgroupLimit puts mysqld in a cgroup limited to limitMB.
func cgroupLimit(limitMB uint64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.Host.Mysqld.MemLimit = limitMB * mb
		s.Host.Mysqld.MemUsed = s.Host.Mysqld.RSSBytes
	}
}

// poolFilling takes pagesPerSec 16K pages a second off the buffer pool's
// free list, freeMB free at the start.
func poolFilling(freeMB, pagesPerSec float64) edit {
	return func(i int, s *snapshot.Snapshot) {
		s.Status["Innodb_buffer_pool_pages_free"] = fmtF(freeMB*mb/16384 - pagesPerSec*float64(i))
		s.Status["Innodb_page_size"] = "16384"
	}
}

func fmtF(v float64) string { return fmt.Sprint(int64(v)) }

// memTable is a MEMORY table filling at growMB a second, written by thread 9.
func memTable(growMB int64) edit {
	return func(i int, s *snapshot.Snapshot) {
		s.Memory = &snapshot.MemoryHolders{Tables: []snapshot.MemoryTable{{Name: "app.mem",
			Bytes: (100 + growMB*int64(i)) * mb, Rows: 500000 * int64(i+1)}}}
		s.Processlist = append(s.Processlist, query(9, float64(i), "Sending data",
			"INSERT INTO app.mem (v) SELECT REPEAT('y', 200) FROM seq_1_to_50000000"))
		s.Status["Memory_used"] = fmtF(float64((600 + growMB*int64(i)) * mb))
	}
}

func TestMysqldMemoryRunaway(t *testing.T) {
	cfg := DefaultConfig()
	runTimelines(t, IDMysqldMemoryRunaway, cfg, []timelineCase{
		// 4 GB left at 300 MB/s: gone in 13 s.
		{"a MEMORY table filling", series(6, mysqldMem(100, 300, 4096, 24576), memTable(300)), "...CCC"},
		// 8 GB left at 20 MB/s: 7 minutes.
		{"a slow leak with minutes left", series(6, mysqldMem(2000, 20, 8192, 24576)), "...WWW"},
		{"a slow leak with an hour left", series(6, mysqldMem(2000, 20, 20480, 24576)), "......"},
		{"a steady server", series(6, mysqldMem(8000, 0, 4096, 24576)), "......"},
		// The healthy twin: a 16 GB pool warming at 300 MB/s, 12 GB of it
		// still free, 20 GB available.
		{"a big buffer pool warming up", series(6, mysqldMem(1000, 300, 20480, 24576),
			poolFilling(12288, 300*mb/16384)), "......"},
		// MariaDB counts the pool at start-up: pages first touched move
		// the resident size, not Memory_used (measured: 51 MB/s resident,
		// 25 MB/s off the free list, Memory_used flat).
		{"allocated memory becoming resident", series(6, mysqldMem(1000, 300, 20480, 24576),
			poolFilling(12288, 150*mb/16384), status("Memory_used", "1400000000")), "......"},
		{"a pool bigger than the memory left", series(6, mysqldMem(1000, 300, 4096, 24576),
			poolFilling(12288, 300*mb/16384)), "...CCC"},
		// The host has 20 GB, the container 2 GB: 1 GB left at 50 MB/s.
		{"a cgroup limit first", series(6, mysqldMem(1000, 50, 20480, 24576), cgroupLimit(2048)), "...CCC"},
		{"remote server", series(2, remote), "NN"},
		{"no mysqld process", series(2), "NN"},
	})
	snaps := series(6, mysqldMem(100, 300, 4096, 24576), memTable(300),
		vars("innodb_buffer_pool_size", "134217728", "sort_buffer_size", "2097152", "join_buffer_size", "262144",
			"tmp_table_size", "16777216", "max_heap_table_size", "16777216"))
	f := lastFinding(t, cfg, snaps, IDMysqldMemoryRunaway)
	mustContain(t, f, "mysqld's memory grows 300M/s", "gone in about", "memory left: 2.5G of 24.0G (the host's MemAvailable)",
		"Memory_used", "MEMORY table app.mem holds", "written by thread 9", "KILL QUERY 9", "max_heap_table_size",
		"variables: buffer pool 128M")
	if len(f.Threads) == 0 || f.Threads[0] != 9 {
		t.Errorf("threads %v, want the writer", f.Threads)
	}
}
