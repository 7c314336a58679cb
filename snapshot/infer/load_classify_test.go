package infer

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestClassify(t *testing.T) {
	measured := func(cpu, io float64) sessionSignals { return sessionSignals{Measured: true, CPU: cpu, IOBps: io} }
	q := func(state string) snapshot.Process {
		return snapshot.Process{Command: "Query", State: state, TimeMS: 5000, Info: "SELECT 1"}
	}
	cases := []struct {
		name   string
		p      snapshot.Process
		sig    sessionSignals
		want   snapshot.WaitClass
		active bool
	}{
		{"idle connection", snapshot.Process{Command: "Sleep", TimeMS: 90000}, sessionSignals{}, snapshot.ClassOther, false},
		{"idle holder of a row lock is still idle", snapshot.Process{Command: "Sleep"}, sessionSignals{Lock: snapshot.LockRow}, snapshot.ClassOther, false},
		{"background daemon", snapshot.Process{Command: "Daemon", State: "InnoDB purge worker"}, sessionSignals{}, snapshot.ClassOther, false},
		{"row lock waiter by the lock tables", q("Updating"), sessionSignals{Lock: snapshot.LockRow}, snapshot.ClassRowLock, true},
		{"row lock beats a busy CPU reading", q("Sending data"), sessionSignals{Lock: snapshot.LockRow, Measured: true, CPU: 90}, snapshot.ClassRowLock, true},
		{"metadata lock by state", q("Waiting for table metadata lock"), sessionSignals{}, snapshot.ClassMetadataLock, true},
		{"schema metadata lock", q("Waiting for schema metadata lock"), sessionSignals{}, snapshot.ClassMetadataLock, true},
		{"metadata lock by the lock sources", q("checking permissions"), sessionSignals{Lock: snapshot.LockMetadata}, snapshot.ClassMetadataLock, true},
		{"MyISAM table lock", q("Waiting for table level lock"), sessionSignals{}, snapshot.ClassTableLock, true},
		{"MySQL 5.1 Locked", q("Locked"), sessionSignals{}, snapshot.ClassTableLock, true},
		{"table flush", q("Waiting for table flush"), sessionSignals{}, snapshot.ClassTableLock, true},
		{"FTWRL", q("Waiting for global read lock"), sessionSignals{}, snapshot.ClassGlobalLock, true},
		{"backup lock", q("Waiting for backup lock"), sessionSignals{}, snapshot.ClassGlobalLock, true},
		{"commit lock under FTWRL", q("Waiting for commit lock"), sessionSignals{}, snapshot.ClassGlobalLock, true},
		{"query cache lock", q("Waiting for query cache lock"), sessionSignals{}, snapshot.ClassQueryCache, true},
		{"query cache storing", q("storing result in query cache"), sessionSignals{}, snapshot.ClassQueryCache, true},
		{"MySQL 8 commit", q("waiting for handler commit"), sessionSignals{}, snapshot.ClassCommit, true},
		{"5.x query end", q("query end"), sessionSignals{}, snapshot.ClassCommit, true},
		{"semi-sync", q("Waiting for semi-sync ACK from slave"), sessionSignals{}, snapshot.ClassCommit, true},
		{"sending to a slow client", q("Sending to client"), sessionSignals{}, snapshot.ClassNetwork, true},
		{"writing to net", q("Writing to net"), sessionSignals{}, snapshot.ClassNetwork, true},
		{"SELECT SLEEP", q("User sleep"), sessionSignals{}, snapshot.ClassSleep, true},
		{"GET_LOCK", q("User lock"), sessionSignals{}, snapshot.ClassOther, true},
		{"killed", snapshot.Process{Command: "Killed"}, sessionSignals{}, snapshot.ClassOther, true},
		{"tmp table to disk", q("converting HEAP to ondisk"), sessionSignals{}, snapshot.ClassIO, true},
		{"running, not measured (remote server, capture)", q("Sending data"), sessionSignals{}, snapshot.ClassCPU, true},
		{"running with no state", q(""), sessionSignals{}, snapshot.ClassCPU, true},
		{"running on a core", q("Sending data"), measured(98, 0), snapshot.ClassCPU, true},
		{"busy CPU and I/O counts as CPU", q("Sending data"), measured(70, 50<<20), snapshot.ClassCPU, true},
		{"reading storage", q("Sending data"), measured(12, 8<<20), snapshot.ClassIO, true},
		{"long, no CPU, no I/O: an unnamed wait", q("updating"), measured(0, 0), snapshot.ClassOther, true},
		{"long, little CPU but runnable: starved of a core", q("Sending data"), sessionSignals{Measured: true, CPU: 4, Runnable: true}, snapshot.ClassCPU, true},
		{"just started, little CPU yet", snapshot.Process{Command: "Query", State: "executing", TimeMS: 300}, measured(5, 0), snapshot.ClassCPU, true},
		{"MariaDB replica applying", snapshot.Process{Command: "Slave_SQL", State: "Update_rows_log_event::find_row(-1)"}, sessionSignals{}, snapshot.ClassReplication, true},
		{"MariaDB replica idle", snapshot.Process{Command: "Slave_SQL", State: "Slave has read all relay log; waiting for more updates"}, sessionSignals{}, snapshot.ClassOther, false},
		{"replica IO thread waiting for the source", snapshot.Process{Command: "Slave_IO", State: "Waiting for master to send event"}, sessionSignals{}, snapshot.ClassOther, false},
		{"parallel worker idle", snapshot.Process{Command: "Slave_worker", State: "Waiting for work from SQL thread"}, sessionSignals{}, snapshot.ClassOther, false},
		{"MySQL applier as system user", snapshot.Process{Command: "Query", User: "system user", State: "Applying batch of row changes (update)"}, sessionSignals{}, snapshot.ClassReplication, true},
		{"applier blocked by a local row lock", snapshot.Process{Command: "Slave_worker", State: "Update_rows_log_event::find_row(-1)"}, sessionSignals{Lock: snapshot.LockRow}, snapshot.ClassRowLock, true},
		{"Galera applier idle", snapshot.Process{Command: "Sleep", User: "system user", State: "wsrep applier idle"}, sessionSignals{}, snapshot.ClassOther, false},
		{"dump thread caught up", snapshot.Process{Command: "Binlog Dump", State: "Master has sent all binlog to slave; waiting for more updates"}, sessionSignals{}, snapshot.ClassOther, false},
		{"dump thread sending", snapshot.Process{Command: "Binlog Dump GTID", State: "Sending binlog event to slave"}, sessionSignals{}, snapshot.ClassNetwork, true},
		{"a state longer than the stack buffer", q("Waiting for stored function metadata lock on something very long indeed"), sessionSignals{}, snapshot.ClassCPU, true},
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
	for c := snapshot.WaitClass(0); c < snapshot.NumWaitClasses; c++ {
		b, _ := c.MarshalText()
		var back snapshot.WaitClass
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Errorf("%s: round trip gave %s, %v", c, back, err)
		}
	}
}
