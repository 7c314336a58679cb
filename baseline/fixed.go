package baseline

import (
	"github.com/mytop-go/mytop-go/snapshot"
)

// fixedSignal is a signal every server has, read from one frame.
type fixedSignal struct {
	spec
	read func(r *reading) (float64, bool)
}

// rate reads the per-second rate of the sum of status counters.
func rate(names ...string) func(r *reading) (float64, bool) {
	return func(r *reading) (float64, bool) {
		sum, any := 0.0, false
		for _, n := range names {
			if v, ok := r.f.Rates.Rate(n); ok {
				sum, any = sum+v, true
			}
		}
		return sum, any
	}
}

// perQuery reads a counter's rate per query: it rises when the statements
// change (a scan, a lost index), not when more of the same arrive.
func perQuery(name string) func(r *reading) (float64, bool) {
	return func(r *reading) (float64, bool) {
		v, ok1 := r.f.Rates.Rate(name)
		q, ok2 := r.f.Rates.Rate("Questions")
		if !ok1 || !ok2 || q < 1 {
			return 0, false
		}
		return v / q, true
	}
}

// gauge reads a status value as it stands.
func gauge(name string) func(r *reading) (float64, bool) {
	return func(r *reading) (float64, bool) { return r.f.Snapshot.StatusFloat(name) }
}

// load reads the active sessions in one wait class.
func load(c snapshot.WaitClass) func(r *reading) (float64, bool) {
	return func(r *reading) (float64, bool) {
		if r.f.Load == nil {
			return 0, false
		}
		return r.f.Load.Classes[c], true
	}
}

const (
	kib = 1024.0
	mib = 1024 * kib
)

// fixedSignals are judged on every server that has them. The floors are the
// smallest move a DBA would call a change on a busy server, in the signal's
// own unit; the directions are the ones that matter (commits falling is
// news, the row lock wait time rising is news even when the waits per second
// fall).
var fixedSignals = []fixedSignal{
	{spec{name: "queries/s", kind: kQueries, dir: both, floor: 20, unit: "/s"}, rate("Questions")},
	{spec{name: "writes/s", kind: kWrites, dir: both, floor: 10, unit: "/s"},
		rate("Com_insert", "Com_update", "Com_delete", "Com_replace", "Com_insert_select", "Com_update_multi", "Com_delete_multi")},
	{spec{name: "rows read/s", kind: kRowsRead, dir: up, floor: 2000, unit: "/s"}, rate("Innodb_rows_read")},
	{spec{name: "full-scan reads/s", kind: kScanReads, dir: up, floor: 2000, unit: "/s"}, rate("Handler_read_rnd_next")},
	{spec{name: "full scans/s", kind: kScans, dir: up, floor: 5, unit: "/s"}, rate("Select_scan", "Select_full_join")},
	{spec{name: "rows read per query", kind: kRowsPerQuery, dir: up, floor: 20, per: kRowsRead}, perQuery("Innodb_rows_read")},
	{spec{name: "full-scan reads per query", kind: kScanPerQuery, dir: up, floor: 20, per: kScanReads}, perQuery("Handler_read_rnd_next")},
	{spec{name: "bytes sent/s", kind: kBytesSent, dir: both, floor: 256 * kib, unit: "B/s"}, rate("Bytes_sent")},
	{spec{name: "bytes received/s", kind: kBytesRecv, dir: both, floor: 64 * kib, unit: "B/s"}, rate("Bytes_received")},
	{spec{name: "row lock waits/s", kind: kRowLockWaits, dir: both, floor: 2, unit: "/s"}, rate("Innodb_row_lock_waits")},
	{spec{name: "row lock wait time ms/s", kind: kRowLockTime, dir: up, floor: 500, unit: "ms/s"}, rate("Innodb_row_lock_time")},
	{spec{name: "row lock waits now", kind: kRowLockCurrent, dir: up, floor: 3}, gauge("Innodb_row_lock_current_waits")},
	{spec{name: "table lock waits/s", kind: kTableLockWaits, dir: up, floor: 1, unit: "/s"}, rate("Table_locks_waited")},
	{spec{name: "threads running", kind: kThreadsRunning, dir: up, floor: 4}, gauge("Threads_running")},
	{spec{name: "connections/s", kind: kConnections, dir: up, floor: 5, unit: "/s"}, rate("Connections")},
	{spec{name: "InnoDB bytes read/s", kind: kDataRead, dir: up, floor: 4 * mib, unit: "B/s"}, rate("Innodb_data_read")},
	{spec{name: "InnoDB bytes written/s", kind: kDataWritten, dir: up, floor: 4 * mib, unit: "B/s"}, rate("Innodb_data_written")},
	{spec{name: "pages flushed/s", kind: kPagesFlushed, dir: up, floor: 100, unit: "/s"}, rate("Innodb_buffer_pool_pages_flushed")},
	{spec{name: "log waits/s", kind: kLogWaits, dir: up, floor: 1, unit: "/s"}, rate("Innodb_log_waits")},
	{spec{name: "FLUSH statements/s", kind: kFlushCmds, dir: up, floor: 0.3, unit: "/s"}, rate("Com_flush")},
	{spec{name: "tables opened/s", kind: kTablesOpened, dir: up, floor: 10, unit: "/s"}, rate("Opened_tables")},
	{spec{name: "checkpoint age", kind: kCheckpointAge, dir: up, floor: 32 * mib, unit: "B"}, gauge("Innodb_checkpoint_age")},
	{spec{name: "replica lag s", kind: kReplicaLag, dir: up, floor: 10, unit: "s"}, replicaLag},
	{spec{name: "sessions on CPU", kind: kLoadCPU, dir: up, floor: 2}, load(snapshot.ClassCPU)},
	{spec{name: "sessions in I/O", kind: kLoadIO, dir: up, floor: 2}, load(snapshot.ClassIO)},
	{spec{name: "sessions in row locks", kind: kLoadRowLock, dir: up, floor: 3}, load(snapshot.ClassRowLock)},
	{spec{name: "sessions in metadata locks", kind: kLoadMDL, dir: up, floor: 2}, load(snapshot.ClassMetadataLock)},
	{spec{name: "sessions in table locks", kind: kLoadTableLock, dir: up, floor: 2}, load(snapshot.ClassTableLock)},
	{spec{name: "sessions in the global lock", kind: kLoadGlobalLock, dir: up, floor: 2}, load(snapshot.ClassGlobalLock)},
	{spec{name: "sessions in commit", kind: kLoadCommit, dir: up, floor: 2}, load(snapshot.ClassCommit)},
	{spec{name: "sessions in network", kind: kLoadNetwork, dir: up, floor: 2}, load(snapshot.ClassNetwork)},
	{spec{name: "sessions in replication", kind: kLoadReplication, dir: up, floor: 1}, load(snapshot.ClassReplication)},
	{spec{name: "active sessions", kind: kLoadTotal, dir: both, floor: 3}, activeSessions},
	{spec{name: "host CPU busy %", kind: kHostBusy, dir: up, floor: 15, unit: "%"}, ownHost(hostBusy)},
	{spec{name: "host iowait %", kind: kIOWait, dir: up, floor: 10, unit: "%"}, ownHost(hostIOWait)},
	{spec{name: "mysqld CPU %", kind: kMysqldCPU, dir: up, floor: 15, unit: "%"}, ownHost(mysqldCPU)},
	{spec{name: "CPU outside mysqld %", kind: kOtherCPU, dir: up, floor: 15, unit: "%"}, ownHost(otherCPU)},
	{spec{name: "busiest processes outside mysqld %", kind: kOtherTop, dir: up, floor: 15, unit: "%"}, ownHost(busiestOthersCPU)},
	{spec{name: "run queue", kind: kRunQueue, dir: up, floor: 2}, ownHost(runQueue)},
	// The kernel's stall clocks: how much of the time some task waited.
	// Floors (UNKNOWN; design): 10 points of CPU or I/O stall, 5 of memory.
	// Trap: a host's own scheduling noise moves CPU and I/O stall a few
	// points from second to second on an idle machine; any memory stall is
	// rare enough to count from less. They corroborate a cause, never open
	// one (classes.go: only among the others).
	{spec{name: "CPU stall %", kind: kStallCPU, dir: up, floor: 10, unit: "%"}, stall(cpuStallOf)},
	{spec{name: "I/O stall %", kind: kStallIO, dir: up, floor: 10, unit: "%"}, stall(ioStallOf)},
	{spec{name: "memory stall %", kind: kStallMem, dir: up, floor: 5, unit: "%"}, stall(memStallOf)},
	{spec{name: "blocked processes", kind: kBlocked, dir: up, floor: 2}, ownHost(blocked)},
	{spec{name: "memory available", kind: kMemAvail, dir: down, floor: 256 * mib, unit: "B"}, ownHost(memAvailable)},
	{spec{name: "swap pages/s", kind: kSwap, dir: up, floor: 50, unit: "/s"}, ownHost(swapping)},
	{spec{name: "mysqld RSS", kind: kRSS, dir: up, floor: 512 * mib, unit: "B"}, ownHost(mysqldRSS)},
	{spec{name: "TCP retransmits/s", kind: kRetrans, dir: up, floor: 10, unit: "/s"}, tcp(func(t *snapshot.TCPRate) float64 { return t.RetransSegs })},
	{spec{name: "TCP retransmitted %", kind: kRetrans, dir: up, floor: 0.5, unit: "%"}, tcp(func(t *snapshot.TCPRate) float64 { return t.RetransPercent })},
	{spec{name: "TCP errors/s", kind: kNetErrors, dir: up, floor: 2, unit: "/s"}, tcp(func(t *snapshot.TCPRate) float64 { return t.InErrs })},
	{spec{name: "monitor round trip ms", kind: kRoundTrip, dir: up, floor: 20, unit: "ms"}, roundTrip},
	{spec{name: "sessions idle in a transaction", kind: kIdleInTrx, dir: up, floor: 4}, idleInTrx},
	// What waits unacknowledged in mysqld's client connections: on a LAN
	// an answer is acknowledged within a fraction of a millisecond, so a
	// sample finds a few connections with bytes in flight at most. Floors
	// (UNKNOWN; design): 4 connections, 256 KiB. Trap: one client reading
	// a large result slowly (a dump over a WAN) holds a full send buffer
	// alone, up to a few MiB; it moves the bytes, not the connections, so
	// the bytes only corroborate (classes.go).
	{spec{name: "client connections waiting to send", kind: kClientQueue, dir: up, floor: 4},
		clientQueue(func(q *snapshot.ClientQueues) float64 { return float64(q.Sending) })},
	{spec{name: "bytes waiting for the clients", kind: kClientBytes, dir: up, floor: 256 * kib, unit: "B"},
		clientQueue(func(q *snapshot.ClientQueues) float64 { return float64(q.SendBytes) })},
}

func activeSessions(r *reading) (float64, bool) {
	if r.f.Load == nil {
		return 0, false
	}
	return float64(r.f.Load.Active), true
}

func replicaLag(r *reading) (float64, bool) {
	lag, any := 0.0, false
	for _, c := range r.f.Snapshot.Channels() {
		if c.BehindKnown {
			lag, any = max(lag, float64(c.Behind)), true
		}
	}
	return lag, any
}

// roundTrip is how long the status read took: the monitor's own round trip
// to the server, which rises with the network's delay.
func roundTrip(r *reading) (float64, bool) {
	st, ok := r.f.Snapshot.Collectors[snapshot.CollectorStatus]
	if !ok || st.Latency <= 0 || st.Stale {
		return 0, false
	}
	return float64(st.Latency.Microseconds()) / 1000, true
}

// fixedIndex is each fixed signal's place in a tracker's signals.
var fixedIndex = func() map[kind]int {
	m := make(map[kind]int, len(fixedSignals))
	for i, fs := range fixedSignals {
		m[fs.kind] = i
	}
	return m
}()
