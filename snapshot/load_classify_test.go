package snapshot

import "testing"

func TestClassify(t *testing.T) {
	measured := func(cpu, io float64) sessionSignals { return sessionSignals{Measured: true, CPU: cpu, IOBps: io} }
	q := func(state string) Process {
		return Process{Command: "Query", State: state, TimeMS: 5000, Info: "SELECT 1"}
	}
	cases := []struct {
		name   string
		p      Process
		sig    sessionSignals
		want   WaitClass
		active bool
	}{
		{"idle connection", Process{Command: "Sleep", TimeMS: 90000}, sessionSignals{}, ClassOther, false},
		{"idle holder of a row lock is still idle", Process{Command: "Sleep"}, sessionSignals{Lock: LockRow}, ClassOther, false},
		{"background daemon", Process{Command: "Daemon", State: "InnoDB purge worker"}, sessionSignals{}, ClassOther, false},
		{"row lock waiter by the lock tables", q("Updating"), sessionSignals{Lock: LockRow}, ClassRowLock, true},
		{"row lock beats a busy CPU reading", q("Sending data"), sessionSignals{Lock: LockRow, Measured: true, CPU: 90}, ClassRowLock, true},
		{"metadata lock by state", q("Waiting for table metadata lock"), sessionSignals{}, ClassMetadataLock, true},
		{"schema metadata lock", q("Waiting for schema metadata lock"), sessionSignals{}, ClassMetadataLock, true},
		{"metadata lock by the lock sources", q("checking permissions"), sessionSignals{Lock: LockMetadata}, ClassMetadataLock, true},
		{"MyISAM table lock", q("Waiting for table level lock"), sessionSignals{}, ClassTableLock, true},
		{"MySQL 5.1 Locked", q("Locked"), sessionSignals{}, ClassTableLock, true},
		{"table flush", q("Waiting for table flush"), sessionSignals{}, ClassTableLock, true},
		{"FTWRL", q("Waiting for global read lock"), sessionSignals{}, ClassGlobalLock, true},
		{"backup lock", q("Waiting for backup lock"), sessionSignals{}, ClassGlobalLock, true},
		{"commit lock under FTWRL", q("Waiting for commit lock"), sessionSignals{}, ClassGlobalLock, true},
		{"query cache lock", q("Waiting for query cache lock"), sessionSignals{}, ClassQueryCache, true},
		{"query cache storing", q("storing result in query cache"), sessionSignals{}, ClassQueryCache, true},
		{"MySQL 8 commit", q("waiting for handler commit"), sessionSignals{}, ClassCommit, true},
		{"5.x query end", q("query end"), sessionSignals{}, ClassCommit, true},
		{"semi-sync", q("Waiting for semi-sync ACK from slave"), sessionSignals{}, ClassCommit, true},
		{"sending to a slow client", q("Sending to client"), sessionSignals{}, ClassNetwork, true},
		{"writing to net", q("Writing to net"), sessionSignals{}, ClassNetwork, true},
		{"SELECT SLEEP", q("User sleep"), sessionSignals{}, ClassSleep, true},
		{"GET_LOCK", q("User lock"), sessionSignals{}, ClassOther, true},
		{"killed", Process{Command: "Killed"}, sessionSignals{}, ClassOther, true},
		{"tmp table to disk", q("converting HEAP to ondisk"), sessionSignals{}, ClassIO, true},
		{"running, not measured (remote server, capture)", q("Sending data"), sessionSignals{}, ClassCPU, true},
		{"running with no state", q(""), sessionSignals{}, ClassCPU, true},
		{"running on a core", q("Sending data"), measured(98, 0), ClassCPU, true},
		{"busy CPU and I/O counts as CPU", q("Sending data"), measured(70, 50<<20), ClassCPU, true},
		{"reading storage", q("Sending data"), measured(12, 8<<20), ClassIO, true},
		{"long, no CPU, no I/O: an unnamed wait", q("updating"), measured(0, 0), ClassOther, true},
		{"long, little CPU but runnable: starved of a core", q("Sending data"), sessionSignals{Measured: true, CPU: 4, Runnable: true}, ClassCPU, true},
		{"just started, little CPU yet", Process{Command: "Query", State: "executing", TimeMS: 300}, measured(5, 0), ClassCPU, true},
		{"MariaDB replica applying", Process{Command: "Slave_SQL", State: "Update_rows_log_event::find_row(-1)"}, sessionSignals{}, ClassReplication, true},
		{"MariaDB replica idle", Process{Command: "Slave_SQL", State: "Slave has read all relay log; waiting for more updates"}, sessionSignals{}, ClassOther, false},
		{"replica IO thread waiting for the source", Process{Command: "Slave_IO", State: "Waiting for master to send event"}, sessionSignals{}, ClassOther, false},
		{"parallel worker idle", Process{Command: "Slave_worker", State: "Waiting for work from SQL thread"}, sessionSignals{}, ClassOther, false},
		{"MySQL applier as system user", Process{Command: "Query", User: "system user", State: "Applying batch of row changes (update)"}, sessionSignals{}, ClassReplication, true},
		{"applier blocked by a local row lock", Process{Command: "Slave_worker", State: "Update_rows_log_event::find_row(-1)"}, sessionSignals{Lock: LockRow}, ClassRowLock, true},
		{"Galera applier idle", Process{Command: "Sleep", User: "system user", State: "wsrep applier idle"}, sessionSignals{}, ClassOther, false},
		{"dump thread caught up", Process{Command: "Binlog Dump", State: "Master has sent all binlog to slave; waiting for more updates"}, sessionSignals{}, ClassOther, false},
		{"dump thread sending", Process{Command: "Binlog Dump GTID", State: "Sending binlog event to slave"}, sessionSignals{}, ClassNetwork, true},
		{"a state longer than the stack buffer", q("Waiting for stored function metadata lock on something very long indeed"), sessionSignals{}, ClassCPU, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, active := Classify(&c.p, c.sig)
			if active != c.active || active && got != c.want {
				t.Errorf("Classify(%q %q) = %s, active %v; want %s, active %v", c.p.Command, c.p.State, got, active, c.want, c.active)
			}
		})
	}
}

func TestWaitClassNamesRoundTrip(t *testing.T) {
	for c := WaitClass(0); c < NumWaitClasses; c++ {
		b, _ := c.MarshalText()
		var back WaitClass
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Errorf("%s: round trip gave %s, %v", c, back, err)
		}
	}
}
