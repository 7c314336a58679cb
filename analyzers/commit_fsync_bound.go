package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// With innodb_flush_log_at_trx_commit=1 every commit waits for the redo log
// to reach the disk. When fsyncs per second come close to commits per second,
// group commit is not sharing them: small transactions each pay an fsync,
// and the disk's flush latency caps the commit rate (incident 004's tuning
// guide: "with many small transactions" the flush mode is the trade-off).
// An info while the disk's flushes are cheap; a warning once the redo device
// spends CommitFsyncBusyWarn % of the time flushing.
const (
	mysqlLogFsyncs = "Innodb_os_log_fsyncs" // MySQL, Percona: redo fsyncs only
	dataFsyncs     = "Innodb_data_fsyncs"   // MariaDB 10.11 has no redo-only counter
)

// dmlCounters are the statements that commit a write when run in autocommit.
var dmlCounters = []string{"Com_insert", "Com_update", "Com_delete", "Com_replace", "Com_insert_select",
	"Com_update_multi", "Com_delete_multi", "Com_replace_select", "Com_load"}

// commitRate is the write commits per second, and how it was counted.
type commitRate struct {
	perSec float64
	how    string
}

func checkCommitFsyncBound(w *window, c *Config) verdict {
	mode, ok := w.variable("innodb_flush_log_at_trx_commit")
	if !ok {
		if len(w.snap.Variables) == 0 {
			return notApplicable("no innodb_flush_log_at_trx_commit in this source")
		}
		return notApplicable("server has no InnoDB redo flush setting")
	}
	fsyncName := fsyncCounter(w)
	if fsyncName == "" {
		return notApplicable("no " + mysqlLogFsyncs + " or " + dataFsyncs + " in this source")
	}
	if mode != "1" || w.warmingUp(c) != "" {
		return quiet()
	}
	commits := writeCommits(w)
	fsyncs, ok := w.rate(fsyncName)
	if !ok || commits.perSec < c.CommitFsyncMinPerSec || fsyncs < c.CommitFsyncShareMin*commits.perSec {
		return quiet()
	}
	dev, busy := redoFlushBusy(w, fsyncs)
	sev := snapshot.Info
	if dev != nil && busy >= c.CommitFsyncBusyWarn {
		sev = snapshot.Warning
	}
	title := fmt.Sprintf("commits wait for the redo log fsync: %s commits/s, %s fsyncs/s (%.2f per commit)",
		fmtRate(commits.perSec), fmtRate(fsyncs), fsyncs/commits.perSec)
	ev := []string{fmt.Sprintf("%s/s %s; write commits/s %s (%s)", fsyncName, fmtRate(fsyncs),
		fmtRate(commits.perSec), commits.how)}
	ev = appendNonEmpty(ev, flushEvidence(dev, fsyncs, busy), durabilitySettings(w), commitStates(w))
	return raise(sev, title, ev, fsyncAdvice(w, dev), nil)
}

func fsyncCounter(w *window) string {
	for _, n := range []string{mysqlLogFsyncs, dataFsyncs} {
		if w.hasStatus(n) {
			return n
		}
	}
	return ""
}

// writeCommits counts commits of transactions that wrote: MariaDB's
// Binlog_commits when the binary log is on (exact), else COMMITs plus the
// DML statements, each of which is its own transaction in autocommit.
// Statements inside explicit transactions overcount, which only makes the
// rule quieter (fsyncs per commit look lower).
func writeCommits(w *window) commitRate {
	if on, _ := w.variable("log_bin"); on == "ON" || on == "1" {
		if r, ok := w.rate("Binlog_commits"); ok {
			return commitRate{r, "Binlog_commits"}
		}
	}
	dml := 0.0
	for _, n := range dmlCounters {
		r, _ := w.rate(n)
		dml += r
	}
	commit, _ := w.rate("Com_commit")
	return commitRate{max(dml, commit), "the larger of Com_commit and autocommit DML statements"}
}

// redoFlushBusy returns the device doing most cache flushes this interval
// (where the redo log's fsyncs land) and the % of the interval it spent
// flushing. Only a local server's host figures can tell.
func redoFlushBusy(w *window, fsyncs float64) (*diskFlush, float64) {
	prev := w.prev()
	if prev == nil || w.snap.Host == nil || w.snap.Host.Remote || prev.Snapshot.Host == nil {
		return nil, 0
	}
	secs := w.snap.Time.Sub(prev.Snapshot.Time).Seconds()
	var best *diskFlush
	for _, c := range w.snap.Host.Disks {
		for _, p := range prev.Snapshot.Host.Disks {
			if p.Name != c.Name || c.Flushes < p.Flushes || c.FlushMS < p.FlushMS || secs <= 0 {
				continue
			}
			d := diskFlush{name: c.Name, perSec: float64(c.Flushes-p.Flushes) / secs}
			if n := c.Flushes - p.Flushes; n > 0 {
				d.msEach = float64(c.FlushMS-p.FlushMS) / float64(n)
			}
			if n := c.Writes - p.Writes; n > 0 && c.WriteMS >= p.WriteMS {
				d.writeAwait = float64(c.WriteMS-p.WriteMS) / float64(n)
			}
			if best == nil || d.perSec > best.perSec {
				best = &d
			}
		}
	}
	if best == nil || best.perSec == 0 {
		return nil, 0
	}
	return best, 100 * best.perSec * best.msEach / 1000
}

// diskFlush is one device's cache flushes over the interval.
type diskFlush struct {
	name                       string
	perSec, msEach, writeAwait float64
}

func flushEvidence(d *diskFlush, fsyncs, busy float64) string {
	if d == nil {
		return "disk flush latency unknown (server not local, or a kernel without flush counters)"
	}
	return fmt.Sprintf("disk %s: %s flushes/s at %.2f ms each (write await %.2f ms): busy flushing %.0f %% of "+
		"the time; at this latency one connection commits at most %s times a second", d.name, fmtRate(d.perSec),
		d.msEach, d.writeAwait, busy, fmtRate(1000/max(d.msEach, 0.001)))
}

func durabilitySettings(w *window) string {
	s := "innodb_flush_log_at_trx_commit=1"
	for _, v := range []string{"sync_binlog", "log_bin", "innodb_flush_method", "binlog_commit_wait_count"} {
		if x, ok := w.variable(v); ok {
			s += ", " + v + "=" + x
		}
	}
	return s
}

// commitStates counts the threads caught committing in this sample.
func commitStates(w *window) string {
	pv := w.processes()
	n := len(pv.inStates("Commit", "query end", "waiting for handler commit", "Waiting for commit"))
	if n == 0 || pv.active == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d working threads caught committing in this sample", n, pv.active)
}

func fsyncAdvice(w *window, d *diskFlush) string {
	s := "Each small transaction waits for its own redo fsync. Options, by what they cost: batch several " +
		"changes per transaction (fewer commits, same durability); put the redo log on a device with a " +
		"battery/flash-backed write cache (fast fsync, same durability); or set " +
		"innodb_flush_log_at_trx_commit=2, which writes at commit and fsyncs once a second: a mysqld crash " +
		"loses nothing, an OS crash or power loss loses up to the last second of commits."
	if sb, ok := w.variable("sync_binlog"); ok && sb == "1" {
		s += " With sync_binlog=1 each commit also fsyncs the binary log; binlog group commit " +
			"(binlog_commit_wait_count / binlog_commit_wait_usec on MariaDB) trades a little latency for fewer fsyncs."
	}
	if d != nil && d.msEach < 0.5 {
		s += fmt.Sprintf(" Flushes on %s cost only %.2f ms now: this is the cost to watch, not yet an outage.",
			d.name, d.msEach)
	}
	return s
}
