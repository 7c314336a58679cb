package baseline

import "github.com/mytop-go/mytop-go/snapshot"

// faults are the injected causes, each as it shows in the signals a
// monitor reads, and the cause class that must be named first.
var faults = []struct {
	name  string
	cause string
	apply func(s *sample)
}{
	{"cpu hog outside mysqld", snapshot.CauseCPUOutside, func(s *sample) {
		s.other, s.runq = 1.9, s.runq+6
		s.mysqld *= 0.6
		s.rates["Questions"] *= 0.7
		s.gauges["Threads_running"] *= 1.3
		s.busiest = []snapshot.ProcessUse{{PID: 4242, Name: "stress-ng", CPUs: 1.9}}
	}},
	{"disk hog", snapshot.CauseDisk, func(s *sample) {
		s.util, s.await, s.writeB = 1, s.await*6, s.writeB+150e6
		s.iowait, s.blocked = 0.6, s.blocked+4
		s.rates["Questions"] *= 0.7
		s.procs[0].state = "Sending data"
		s.procs = append(s.procs, procSpec{n: 10, user: "app", host: "10.0.0.5", state: "Waiting for handler commit",
			query: "COMMIT"})
	}},
	{"request rate doubled", snapshot.CauseWorkload, func(s *sample) {
		for k := range s.rates {
			s.rates[k] *= 2
		}
		s.gauges["Threads_running"] *= 1.8
		s.mysqld *= 1.5
		for i := range s.procs {
			s.procs[i].n *= 2
		}
	}},
	{"scan-heavy statement", snapshot.CauseStatement, func(s *sample) {
		s.rates["Handler_read_rnd_next"] += 600000
		s.rates["Innodb_rows_read"] += 600000
		s.rates["Select_scan"] += 20
		s.mysqld += 0.4
		s.procs = append(s.procs, procSpec{n: 30, user: "report", host: "10.0.0.5", state: "Sending data",
			query: "SELECT * FROM sbtest1 WHERE c LIKE '%abc%'"})
	}},
	{"lock convoy", snapshot.CauseLocks, func(s *sample) {
		lockConvoy(s)
		s.procs[1].n += 40
	}},
	// The convoy's waiters include a client the baseline never saw (a
	// batch job's user and host): a new client host whose sessions wait
	// while the server completes half its usual requests is not a spike.
	{"lock convoy among a new client's sessions", snapshot.CauseLocks, func(s *sample) {
		lockConvoy(s)
		s.procs = append(s.procs, procSpec{n: 30, user: "batch", host: "10.0.0.99", state: "updating",
			query: "UPDATE sbtest1 SET k=k+1 WHERE id=7"})
	}},
	// Another process keeps the disk busy at the same time (a shared
	// host's build), while mysqld's sessions wait on row locks, none on
	// I/O: the busy device is news, the convoy is the cause.
	{"lock convoy beside another process's disk writes", snapshot.CauseLocks, func(s *sample) {
		lockConvoy(s)
		s.procs[1].n += 40
		s.util, s.await, s.writeB = 1, s.await*4, s.writeB+60e6
		s.iowait, s.blocked = 0.6, s.blocked+4
	}},
	{"flush storm", snapshot.CauseFlush, func(s *sample) {
		s.rates["Com_flush"] = 5
		s.rates["Opened_tables"] = 300
		s.procs = append(s.procs, procSpec{n: 15, user: "app", host: "10.0.0.5", state: "Waiting for table flush",
			query: "SELECT c FROM sbtest1 WHERE id=5"})
	}},
	{"logical dump", snapshot.CauseRoutine, func(s *sample) {
		s.rates["Handler_read_rnd_next"] += 300000
		s.rates["Innodb_rows_read"] += 300000
		s.rates["Bytes_sent"] += 40e6
		s.readB += 60e6
		s.routine = []Routine{{ID: 9001, Tool: "mariadb-dump", Doing: "dumping sbtest.sbtest1"}}
		s.procs = append(s.procs, procSpec{n: 1, user: "root", host: "localhost", state: "Sending data",
			query: "SELECT /*!40001 SQL_NO_CACHE */ * FROM `sbtest1`"})
	}},
	{"network delay", snapshot.CauseNetwork, func(s *sample) {
		s.rates["Questions"] *= 0.4
		s.rates["Bytes_sent"] *= 0.4
		s.rates["Bytes_received"] *= 0.4
		s.txB *= 0.4
		s.retrans = 150
		s.procs = append(s.procs, procSpec{n: 25, user: "app", host: "10.0.0.5", state: "Sending to client",
			query: "SELECT c FROM sbtest1 WHERE id=5"})
	}},
	// A link at its capacity (a rate limit with a short queue, as tc's htb
	// makes it): no retransmits and no session in Sending to client, as the
	// busy-normal family recorded it. Each client waits on every round
	// trip inside its transaction, holding its row locks, so the lock wait
	// time rises as an effect while commits, queries and bytes fall.
	{"congested client link", snapshot.CauseNetwork, func(s *sample) {
		for _, k := range []string{"Questions", "Com_insert", "Com_update", "Com_delete", "Com_commit", "Innodb_rows_read",
			"Handler_read_rnd_next", "Bytes_sent", "Bytes_received", "Innodb_row_lock_waits", "Innodb_data_written"} {
			s.rates[k] *= 0.15
		}
		s.rates["Innodb_row_lock_time"] *= 6
		s.gauges["Innodb_row_lock_current_waits"] *= 1.5
		s.txB *= 0.15
		s.mysqld *= 0.3
		s.idleTrx = 30
	}},
	{"replica falling behind", snapshot.CauseReplication, func(s *sample) { s.lag = 120 }},
	{"host swapping", snapshot.CauseMemory, func(s *sample) {
		s.swap, s.memAv = 2000, 50e6
	}},
}

// lockConvoy is a convoy's counters: the wait time up while the waits per
// second and the requests fall, 40 more sessions waiting.
func lockConvoy(s *sample) {
	s.rates["Innodb_row_lock_time"] *= 8
	s.rates["Innodb_row_lock_waits"] *= 0.5
	s.rates["Questions"] *= 0.5
	s.gauges["Innodb_row_lock_current_waits"] += 40
	s.gauges["Threads_running"] += 40
}
