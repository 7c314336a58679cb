package analyzers

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A replica behind its source (REPL-01: warn > 30 s APA/MX, critical > 300 s
// PMM-A). SQL_Delay is subtracted: a delayed replica is late on purpose. A
// stopped replication thread is critical (REPL-02); Seconds_Behind is NULL then.
func checkReplicationLag(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorReplica); r != "" {
		return notApplicable(r)
	}
	rep := w.snap.Replica
	if rep == nil {
		if w.failedThisTick(snapshot.CollectorReplica) {
			return quiet()
		}
		return notApplicable("not a replica")
	}
	if stopped := stoppedThreads(rep); stopped != "" {
		ev := appendNonEmpty([]string{stopped}, field(rep, "Last_SQL_Error", "Last_IO_Error"))
		return raise(snapshot.Critical, "replication stopped: "+stopped, ev, replicationAdvice, nil)
	}
	lag, ok := replicaLag(rep)
	if !ok || lag <= c.ReplicaLagWarn {
		return quiet()
	}
	sev := snapshot.Warning
	if lag > c.ReplicaLagCrit {
		sev = snapshot.Critical
	}
	ev := []string{fmt.Sprintf("Seconds_Behind %s (after SQL_Delay)", fmtDuration(lag))}
	ev = appendNonEmpty(ev, field(rep, "Master_Host", "Source_Host"), field(rep, "Slave_SQL_Running_State",
		"Replica_SQL_Running_State"))
	return raise(sev, fmt.Sprintf("replica %s behind its source", fmtDuration(lag)), ev, replicationAdvice, nil)
}

const replicationAdvice = "Look at what the SQL thread applies (processlist of system user, big transactions, " +
	"tables without a primary key make row events scan); for stopped threads read Last_*_Error before " +
	"restarting them."

// replicaLag is Seconds_Behind_Master/Source minus SQL_Delay.
func replicaLag(rep map[string]string) (time.Duration, bool) {
	raw := first(rep, "Seconds_Behind_Master", "Seconds_Behind_Source")
	secs, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return 0, false
	}
	if d, err := strconv.ParseFloat(first(rep, "SQL_Delay"), 64); err == nil {
		secs -= d
	}
	return time.Duration(max(secs, 0) * float64(time.Second)), true
}

// stoppedThreads names replication threads that do not run, or "".
func stoppedThreads(rep map[string]string) string {
	var out []string
	for _, pair := range [][2]string{{"Slave_IO_Running", "Replica_IO_Running"}, {"Slave_SQL_Running", "Replica_SQL_Running"}} {
		v := first(rep, pair[0], pair[1])
		if v != "" && !strings.EqualFold(v, "Yes") && !strings.EqualFold(v, "Connecting") {
			out = append(out, fmt.Sprintf("%s=%s", strings.TrimPrefix(pair[1], "Replica_"), v))
		}
	}
	return strings.Join(out, ", ")
}

func first(m map[string]string, keys ...string) string {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// field is "Name: value" for the first key present with a value, or "".
func field(m map[string]string, keys ...string) string {
	for _, k := range keys {
		if v := strings.TrimSpace(m[k]); v != "" {
			return k + ": " + v
		}
	}
	return ""
}
