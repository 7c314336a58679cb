package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Semi-synchronous replication fell back to asynchronous: the source has
// semi-sync enabled, but after a commit waited rpl_semi_sync_master_timeout
// for a replica's acknowledgement it switched semi-sync off, and commits now
// return before any replica has their events: a failover may lose them. The
// server's own state says it (Rpl_semi_sync_master_status OFF while
// rpl_semi_sync_master_enabled is ON; MySQL 8.0.26+ spells them _source_),
// and Rpl_semi_sync_master_no_tx counts the commits not acknowledged. No
// threshold is needed: one sample of the state proves it. Trap: a standby
// prepared for failover has the source side enabled while nothing replicates
// from it; with read_only on it is an info.

// semisyncNames are the status and variable names of one spelling.
type semisyncNames struct{ enabled, timeout, status, noTx, yesTx, clients, noTimes string }

var semisyncSpellings = []semisyncNames{
	{"rpl_semi_sync_master_enabled", "rpl_semi_sync_master_timeout", "Rpl_semi_sync_master_status",
		"Rpl_semi_sync_master_no_tx", "Rpl_semi_sync_master_yes_tx", "Rpl_semi_sync_master_clients",
		"Rpl_semi_sync_master_no_times"},
	{"rpl_semi_sync_source_enabled", "rpl_semi_sync_source_timeout", "Rpl_semi_sync_source_status",
		"Rpl_semi_sync_source_no_tx", "Rpl_semi_sync_source_yes_tx", "Rpl_semi_sync_source_clients",
		"Rpl_semi_sync_source_no_times"},
}

// IDSemisyncFallback names the findings of semisync_fallback: a contract (the
// README's findings table), stable, never reused.
const IDSemisyncFallback = "semisync_fallback"

// semisyncFallbackRule is semisync_fallback in the rules table (rule.go). The
// server's own state (Rpl_semi_sync_master_status OFF) proves it.
var semisyncFallbackRule = rule{id: IDSemisyncFallback, check: checkSemisyncFallback, persist: persistFor(time.Second, 5*time.Second)}

func checkSemisyncFallback(w *window, c *Config) verdict {
	var n *semisyncNames
	for i := range semisyncSpellings {
		if w.hasStatus(semisyncSpellings[i].status) {
			n = &semisyncSpellings[i]
			break
		}
	}
	if n == nil {
		if len(w.snap.Status) > 0 {
			return notApplicable("no semi-synchronous replication on this server (no Rpl_semi_sync_master_status)")
		}
		return quiet()
	}
	enabled, ok := w.variable(n.enabled)
	if !ok || !isOn(enabled) {
		return quiet()
	}
	status := strings.TrimSpace(w.snap.Status[n.status])
	noTx, _ := w.rate(n.noTx)
	if isOn(status) && noTx <= 0 {
		return quiet()
	}
	ev := []string{fmt.Sprintf("%s=%s while %s=%s", n.status, status, n.enabled, enabled)}
	if v, ok := w.snap.StatusInt(n.clients); ok {
		ev = append(ev, fmt.Sprintf("%s %d (replicas connected with semi-sync)", n.clients, v))
	}
	ev = append(ev, w.counterLines(n.noTx, n.yesTx, n.noTimes)...)
	if v, ok := w.snap.StatusInt(n.noTx); ok {
		ev = append(ev, fmt.Sprintf("%s %d since start-up", n.noTx, v))
	}
	if v, ok := w.variable(n.timeout); ok {
		ev = append(ev, n.timeout+"="+v+" ms")
	}
	for _, name := range []string{"rpl_semi_sync_master_wait_point", "rpl_semi_sync_master_wait_no_slave",
		"rpl_semi_sync_source_wait_point", "rpl_semi_sync_source_wait_for_replica_count"} {
		if v, ok := w.variable(name); ok {
			ev = append(ev, name+"="+v)
		}
	}
	ev = append(ev, binlogDumpLines(w.processes())...)
	sev := snapshot.Warning
	title := "semi-synchronous replication fell back to asynchronous"
	if noTx > 0 {
		title += fmt.Sprintf(": %s commits/s return without a replica's acknowledgement", fmtRate(noTx))
	}
	if ro, ok := w.variable("read_only"); ok && isOn(ro) {
		sev = snapshot.Info
		ev = append(ev, "read_only=ON: a standby with the source side enabled for failover")
	}
	return raise(sev, title, ev,
		"Commits are no longer on a replica when they return: a failover now may lose them. Find why no "+
			"semi-sync replica acknowledges (replica IO thread stopped or lagging, network, "+
			"rpl_semi_sync_slave_enabled off on the replicas: SHOW REPLICA STATUS there); semi-sync switches "+
			"back on by itself once a replica catches up. Raise "+n.timeout+" only if the replicas are "+
			"slow but healthy, knowing each commit may then wait that long.", nil)
}

func isOn(v string) bool {
	v = strings.TrimSpace(v)
	return strings.EqualFold(v, "ON") || v == "1" || strings.EqualFold(v, "YES")
}

// binlogDumpLines names the replicas' dump threads (Binlog Dump / Binlog
// Dump GTID) connected to this source.
func binlogDumpLines(v *procView) []string {
	var out []string
	for i := range v.all {
		p := &v.all[i]
		if strings.HasPrefix(p.Command, "Binlog Dump") {
			out = append(out, fmt.Sprintf("replica connected: thread %d %s (%s): %s", p.ID, userHost(p), p.Command, p.State))
		}
	}
	if len(out) == 0 {
		out = append(out, "no replica is connected (no Binlog Dump thread in the processlist)")
	}
	return out
}
