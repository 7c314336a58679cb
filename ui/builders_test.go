package ui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// t0 is the moment test frames are taken at.
var t0 = time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)

// incidentProcs is the query-cache incident's processlist: UPDATEs scanning
// for tens of seconds and SELECTs queued on the query cache lock behind them.
func incidentProcs() []snapshot.Process {
	return []snapshot.Process{
		{ID: 5121, User: "app", Host: "10.0.0.12:51234", DB: "shop", Command: "Query", TimeMS: 48_000,
			State: "Sending data", Info: "UPDATE b SET qty = qty - 1 WHERE c = 'x'", ExaminedRows: 2_104_331},
		{ID: 5188, User: "web", Host: "10.0.0.31:40022", DB: "shop", Command: "Query", TimeMS: 9_000,
			State: "Waiting for query cache lock", Info: "SELECT id, name FROM items WHERE cat = 7", ExaminedRows: 0},
		{ID: 5190, User: "web", Host: "10.0.0.32:40100", DB: "shop", Command: "Query", TimeMS: 12_000,
			State: "Waiting for query cache lock", Info: "SELECT * FROM items WHERE id = 99", ExaminedRows: 0},
		{ID: 4001, User: "report", Host: "10.0.0.40:33000", DB: "dw", Command: "Query", TimeMS: 75_000,
			State: "Sending data", Info: "SELECT SUM(total) FROM orders GROUP BY day", ExaminedRows: 9_800_000},
		{ID: 3000, User: "app", Host: "10.0.0.12:51000", DB: "shop", Command: "Sleep", TimeMS: 300_000, ExaminedRows: 0},
		{ID: 1, User: "system user", Command: "Daemon", TimeMS: 900_000_000, State: "InnoDB purge coordinator", ExaminedRows: -1},
	}
}

func incidentStatus(scale int64) map[string]string {
	base := map[string]int64{
		"Uptime": 273_600, "Questions": 90_000_000, "Com_select": 70_000_000, "Com_insert": 3_000_000,
		"Com_update": 1_200_000, "Com_delete": 40_000, "Threads_connected": 212, "Threads_running": 38,
		"Innodb_buffer_pool_read_requests": 9_000_000_000, "Innodb_buffer_pool_reads": 4_500_000,
		"Qcache_hits": 20_000_000, "Qcache_inserts": 60_000_000, "Qcache_lowmem_prunes": 90_000,
		"Slow_queries": 12_000, "Handler_read_key": 500_000_000, "Handler_read_next": 800_000_000,
		"Handler_read_rnd": 1_000_000, "Handler_read_rnd_next": 9_000_000_000, "Innodb_rows_read": 7_000_000_000,
		"Innodb_rows_inserted": 3_000_000, "Innodb_rows_updated": 1_100_000, "Innodb_rows_deleted": 30_000,
		"Created_tmp_disk_tables": 5_000, "Sort_merge_passes": 300, "Innodb_buffer_pool_pages_total": 8192,
		"Innodb_buffer_pool_pages_free": 164, "Innodb_buffer_pool_pages_dirty": 1146, "Innodb_page_size": 16384,
	}
	perSec := map[string]int64{
		"Uptime": 1, "Questions": 1482, "Com_select": 1201, "Com_insert": 12, "Com_update": 41, "Com_delete": 3,
		"Innodb_buffer_pool_read_requests": 45_000, "Innodb_buffer_pool_reads": 90, "Qcache_hits": 180,
		"Qcache_inserts": 1020, "Qcache_lowmem_prunes": 3, "Slow_queries": 3, "Handler_read_rnd_next": 4_200_000,
		"Innodb_rows_read": 4_200_000, "Innodb_rows_updated": 41,
	}
	out := make(map[string]string, len(base))
	for k, v := range base {
		out[k] = strconv.FormatInt(v+perSec[k]*scale, 10)
	}
	return out
}

func incidentHost(scale uint64) *snapshot.Host {
	return &snapshot.Host{
		Hostname: "db1", NumCPU: 8,
		CPU:   snapshot.CPUTimes{User: 10_000 + 2.48*float64(scale), System: 2_000 + 0.32*float64(scale), Idle: 80_000 + 4.96*float64(scale), IOWait: 300 + 0.24*float64(scale)},
		Load1: 7.9, Load5: 5.1, Load15: 3.2, ProcsRunning: 8, ProcsBlocked: 0,
		ContextSwitches: 1_000_000 + 41_000*scale, MemTotal: 64 << 30, MemAvailable: 18 << 30, SwapTotal: 4 << 30, SwapFree: 4 << 30,
		Disks: []snapshot.DiskCounters{{Name: "sda", Reads: 1_000 + 410*scale, Writes: 500 + 220*scale,
			ReadTimeMS: 10_000 + 24_000*scale, WriteMS: 5_000 + 0*scale, IOTimeMS: 100_000 + 640*scale}},
	}
}

func incidentInnoDB() *snapshot.InnoDBStatus {
	return &snapshot.InnoDBStatus{
		Log:          snapshot.InnoDBLog{Present: true, CheckpointAge: 31 << 20, CapacityBytes: 100 << 20, CheckpointAgePercent: 31},
		Rows:         snapshot.InnoDBRows{Present: true, QueueShown: true, QueriesInside: 8, QueriesInQueue: 0},
		Transactions: snapshot.InnoDBTransactions{Present: true, HistoryListLength: 1204, Count: 12, Active: 5, OldestActiveSeconds: 48, LockWaits: 3},
		FileIO:       snapshot.InnoDBFileIO{Present: true},
		Semaphores:   snapshot.InnoDBSemaphores{Present: true},
	}
}

func incidentSnapshot(at time.Time, scale int64) *snapshot.Snapshot {
	return &snapshot.Snapshot{
		Time:        at,
		Server:      snapshot.ServerInfo{Address: "db1:3306", Version: "10.11.19-MariaDB-log", Flavor: snapshot.FlavorMariaDB},
		Processlist: incidentProcs(),
		Status:      incidentStatus(scale),
		Variables:   map[string]string{"query_cache_type": "ON", "query_cache_size": "134217728"},
		InnoDB:      incidentInnoDB(),
		Host:        incidentHost(uint64(scale)),
	}
}

// incidentFindings are what the analyzers would raise on incidentFrame.
func incidentFindings() []snapshot.Finding {
	return []snapshot.Finding{
		{ID: "full_scan_update", Severity: snapshot.Warning, Since: t0.Add(-72 * time.Second),
			Title: "UPDATE shop.b ... WHERE c=? reads 2.1M rows (EXPLAIN: ALL), 48 s", Threads: []int64{5121},
			Evidence: []string{"thread 5121 examined 2,104,331 rows in 48 s"}, Advice: "add an index on b(c)"},
		{ID: "query_cache_contention", Severity: snapshot.Critical, Since: t0.Add(-41 * time.Second),
			Title: "2 threads wait for the query cache lock; 1 UPDATE holds it", Threads: []int64{5188, 5190},
			Evidence: []string{"2 threads in 'Waiting for query cache lock'", "Qcache_lowmem_prunes 3/s"},
			Advice:   "set query_cache_type=0 and query_cache_size=0"},
	}
}

// incidentFrame is a realistic frame with rates from the previous second.
func incidentFrame() *snapshot.Frame {
	return frameAt(1000)
}

// frameAt builds the frame n seconds into the incident.
func frameAt(n int64) *snapshot.Frame {
	prev := incidentSnapshot(t0.Add(-time.Second), n-1)
	cur := incidentSnapshot(t0, n)
	return &snapshot.Frame{
		Seq: int(n), Snapshot: cur, Rates: snapshot.Delta(prev, cur), Findings: incidentFindings(),
		NotApplicable: map[string]string{"replication_lag": "server is not a replica"},
		Mode:          "LIVE", Recording: "incident.mytop",
	}
}

// bigFrame has n processlist rows with varied users, states and times.
func bigFrame(n int) *snapshot.Frame {
	f := incidentFrame()
	procs := make([]snapshot.Process, n)
	states := []string{"Sending data", "Waiting for table level lock", "", "statistics", "Sorting result"}
	for i := range procs {
		procs[i] = snapshot.Process{
			ID: int64(10_000 + i), User: fmt.Sprintf("user%d", i%17), Host: fmt.Sprintf("10.0.%d.%d:4%04d", i%4, i%250, i),
			DB: "shop", Command: []string{"Query", "Sleep"}[i%2], TimeMS: int64(i%97) * 1000,
			State: states[i%len(states)], Info: fmt.Sprintf("SELECT * FROM t%d WHERE id = %d", i%13, i), ExaminedRows: int64(i * 3),
		}
	}
	f.Snapshot.Processlist = procs
	return f
}
