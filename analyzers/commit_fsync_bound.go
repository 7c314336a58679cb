package analyzers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// With innodb_flush_log_at_trx_commit=1 every commit waits for the redo log
// to reach the disk. The rule judges that wait by time: how much of each
// second the redo device spends flushing (mysqld's fsyncs/s x the device's
// ms per flush, from /proc/diskstats), and how many working threads are
// caught in their commit states. Fsyncs per commit are not the test: group
// commit shares one fsync among the commits that queued behind the last
// one, so the more commits wait, the fewer fsyncs each costs (the monthly-incident reproductions: 16
// clients, 1,722 commits/s on 449 fsyncs/s, ran more than 10x faster with
// =2), and a ratio would call the worst case healthy. Info once the flushes
// take CommitFsyncBusyInfo % of the time (or, with no disk figures, an fsync
// per commit: the pattern alone); a warning at CommitFsyncBusyWarn %, or
// when commits are also caught waiting in CommitWaitShareWarn % of the
// working-thread sightings (the InnoDB tuning guide's tuning guide: "with many small
// transactions" the flush mode is the trade-off).
const (
	mysqlLogFsyncs = "Innodb_os_log_fsyncs" // MySQL, Percona: redo fsyncs only
	dataFsyncs     = "Innodb_data_fsyncs"   // MariaDB 10.11 has no redo-only counter
)

// CommitTimeConfig holds commit_fsync_bound's thresholds, each with its
// source and the trap it avoids: the commit rate floor, the fsync share, and
// the share of each second the redo device spends flushing.
type CommitTimeConfig struct {
	// CommitFsyncBusyInfo: % of each second the redo device spends flushing
	// mysqld's fsyncs at which commits pay for them noticeably (UNKNOWN;
	// design: a fifth of the time. Measured on this machine's virtual disk,
	// 16 autocommit INSERT clients: 950 fsyncs/s at 0.36 ms, 34 %; 2
	// clients at 20 inserts/s each: 40 fsyncs/s, under 2 %). Trap: other
	// processes' flushes on the same device (seven other servers share this
	// one); only as many flushes as mysqld fsynced are counted.
	CommitFsyncBusyInfo float64
	// CommitWaitShareWarn: % of working-thread sightings over the
	// SightingWindow caught in a commit state ("Commit", "Waiting for
	// commit", "waiting for handler commit", "query end") at which the
	// flushes are what the clients wait for (UNKNOWN; design). Trap: one
	// sample that caught a few committing is chance: sightings over the
	// window, and at least CommitWaitSightingsMin of them.
	CommitWaitShareWarn    float64
	CommitWaitSightingsMin int

	// CommitFsyncMinPerSec: write commits per second below which per-commit
	// fsyncs are not judged (UNKNOWN; design). Trap avoided: a lightly loaded
	// server with innodb_flush_log_at_trx_commit=1 fsyncs once per commit
	// too, and nobody waits for it.
	CommitFsyncMinPerSec float64

	// CommitFsyncShareMin: fsyncs per commit at or above which group commit
	// is not absorbing the fsyncs ("fsyncs per second close to commits per
	// second", the tuning-signal rules; measured on MariaDB 10.11: 1.1 fsyncs per commit
	// with one client, 0.5 with 16; the fraction is a design choice). Trap: a
	// ratio over a near-zero denominator (CommitFsyncMinPerSec sets its floor).
	CommitFsyncShareMin float64

	// CommitFsyncBusyWarn: % of each second the redo device spends on cache
	// flushes (fsyncs/s x ms per flush, from /proc/diskstats) at which commits
	// are bound by it: a warning. Below it the pattern is an info (UNKNOWN;
	// design). Trap avoided: on a disk whose write cache makes a flush cost
	// 0.05 ms, 2,500 fsyncs/s cost an eighth of a second per second and the
	// pattern is worth knowing, not an alarm.
	CommitFsyncBusyWarn float64
}

func (c *CommitTimeConfig) defaults() {
	*c = CommitTimeConfig{
		CommitFsyncBusyInfo:    20,
		CommitWaitShareWarn:    30,
		CommitWaitSightingsMin: 10,
		CommitFsyncMinPerSec:   100,
		CommitFsyncShareMin:    0.5,
		CommitFsyncBusyWarn:    50,
	}
}

// dmlCounters are the statements that commit a write when run in autocommit.
var dmlCounters = []string{"Com_insert", "Com_update", "Com_delete", "Com_replace", "Com_insert_select",
	"Com_update_multi", "Com_delete_multi", "Com_replace_select", "Com_load"}

// commitRate is the write commits per second, and how it was counted.
type commitRate struct {
	perSec float64
	how    string
}

// IDCommitFsyncBound names the findings of commit_fsync_bound: a contract (the
// README's findings table), stable, never reused.
const IDCommitFsyncBound = "commit_fsync_bound"

// commitFsyncBoundRule is commit_fsync_bound in the rules table (rule.go); it
// keeps Config.DefaultPersistence.
var commitFsyncBoundRule = rule{id: IDCommitFsyncBound, check: checkCommitFsyncBound, held: true}

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
	if !ok || fsyncs <= 0 || commits.perSec < c.CommitFsyncMinPerSec {
		return quiet()
	}
	dev, busy := redoFlushBusy(w, fsyncs)
	perCommit := fsyncs >= c.CommitFsyncShareMin*commits.perSec
	waits := commitWaits(w)
	waiting := waits.sightings >= c.CommitWaitSightingsMin && waits.share() >= c.CommitWaitShareWarn
	var sev snapshot.Severity
	switch {
	case dev != nil && (busy >= c.CommitFsyncBusyWarn || busy >= c.CommitFsyncBusyInfo && waiting):
		sev = snapshot.Warning
	case dev != nil && busy >= c.CommitFsyncBusyInfo, perCommit:
		sev = snapshot.Info
	default:
		return quiet()
	}
	title := fmt.Sprintf("commits wait for the redo log fsync: %s commits/s, %s fsyncs/s (%.2f per commit)",
		fmtRate(commits.perSec), fmtRate(fsyncs), fsyncs/commits.perSec)
	if dev != nil {
		title = fmt.Sprintf("commits wait for the redo log fsync: %s busy flushing %.0f %% of the time for %s "+
			"commits/s (%s fsyncs/s)", dev.name, busy, fmtRate(commits.perSec), fmtRate(fsyncs))
	}
	ev := []string{fmt.Sprintf("%s/s %s; write commits/s %s (%s)", fsyncName, fmtRate(fsyncs),
		fmtRate(commits.perSec), commits.how)}
	if !perCommit {
		ev = append(ev, fmt.Sprintf("group commit shares each fsync among %.1f commits: the commits queue "+
			"behind the flushes", commits.perSec/fsyncs))
	}
	ev = appendNonEmpty(ev, flushEvidence(dev, fsyncs, busy), durabilitySettings(w), waits.line(), commitStates(w))
	return raise(sev, title, ev, fsyncAdvice(w, dev), nil)
}

// commitStateNames are the processlist states of a thread committing: the
// redo (and binary log) flush happens in them.
var commitStateNames = []string{"Commit", "Committing", "Waiting for commit", "waiting for handler commit",
	"query end", "Commit implicit"}

// commitWaitTally is the commit-state sightings over the SightingWindow.
type commitWaitTally struct {
	sightings, working, samples int
}

func (t commitWaitTally) share() float64 {
	if t.working == 0 {
		return 0
	}
	return 100 * float64(t.sightings) / float64(t.working)
}

func (t commitWaitTally) line() string {
	if t.sightings == 0 {
		return ""
	}
	return fmt.Sprintf("over the last %d samples, %d of %d working-thread sightings were in a commit state (%.0f %%)",
		t.samples, t.sightings, t.working, t.share())
}

func commitWaits(w *window) commitWaitTally {
	var t commitWaitTally
	for _, f := range w.recent(max(w.cfg.SightingWindow, 1)) {
		t.samples++
		for i := range f.Snapshot.Processlist {
			p := &f.Snapshot.Processlist[i]
			if !isWorking(p) || p.Command == "Connect" {
				continue
			}
			t.working++
			for _, s := range commitStateNames {
				if strings.EqualFold(p.State, s) {
					t.sightings++
					break
				}
			}
		}
	}
	return t
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
	// The device holding the redo log when the mount table tells; else the
	// one flushing most, which on a busy commit load is the redo's.
	best := busiestFlusher(w.snap.Host.Disks, prev.Snapshot.Host.Disks, secs, redoDevice(w))
	if best == nil {
		best = busiestFlusher(w.snap.Host.Disks, prev.Snapshot.Host.Disks, secs, "")
	}
	if best == nil || best.perSec == 0 {
		return nil, 0
	}
	// Other processes flush the same device: count no more flushes than
	// mysqld asked for.
	return best, 100 * min(best.perSec, fsyncs) * best.msEach / 1000
}

// redoDevice is the device of innodb_log_group_home_dir, "" when unknown.
func redoDevice(w *window) string {
	for dev, holds := range serverDevices(w) {
		if slices.Contains(holds, "redo") {
			return dev
		}
	}
	return ""
}

// busiestFlusher is the device (only, if named) that completed the most
// cache flushes per second between two host samples.
func busiestFlusher(cur, prev []snapshot.DiskCounters, secs float64, only string) *diskFlush {
	var best *diskFlush
	for _, c := range cur {
		if only != "" && c.Name != only {
			continue
		}
		for _, p := range prev {
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
	return best
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
