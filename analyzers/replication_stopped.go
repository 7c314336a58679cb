package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDReplicationStopped names the findings of replication_stopped: a contract
// (the README's findings table), stable, never reused.
const IDReplicationStopped = "replication_stopped"

// replicationStoppedRule is replication_stopped in the rules table (rule.go).
// A stopped thread does not flicker; the state is read, not sampled.
var replicationStoppedRule = rule{id: IDReplicationStopped, check: checkReplicationStopped, persist: persistFor(2*time.Second, 3*time.Second)}

// A replication thread that does not run (REPL-02: APA 1 m, MX 2 m,
// critical): the replica falls further behind every second and
// Seconds_Behind shows NULL, not a number, so replication_lag cannot see
// it. Critical when the thread stopped on an error; a warning when both
// threads were stopped without one (STOP REPLICA by hand, maintenance),
// and an info for the first ReplicaStoppedGrace after the monitor saw them
// stop: a pause of a few tens of seconds by a DBA or a job (a backup's
// --safe-slave-backup, mariadb-dump --dump-slave) is routine, and
// replication_lag names the catch-up when it resumes. The grace is REPL-02's
// own duration (APA 1 m, MX 2 m); a thread stopped by an error needs none.
func checkReplicationStopped(w *window, c *Config) verdict {
	chans, v := channelsOf(w)
	if v != nil {
		return *v
	}
	var ev []string
	var title, errTitle string
	// paused: every channel stopped without an error was seen running
	// within the grace; pausedFor is the longest of those pauses.
	paused, pausedFor := true, time.Duration(0)
	for _, ch := range chans {
		lines, what, failed := stoppedLines(ch)
		if lines == nil {
			continue
		}
		if !failed {
			if ago, seen := stoppedFor(w, ch); seen && ago < c.ReplicaStoppedGrace {
				pausedFor = max(pausedFor, ago)
				lines = append(lines, fmt.Sprintf("  stopped without an error %s ago, while the monitor watched "+
					"(a pause by hand or by a job); a warning after %s", fmtDuration(ago),
					fmtDuration(c.ReplicaStoppedGrace)))
			} else {
				paused = false
			}
		}
		if title == "" {
			title = what
		}
		if failed && errTitle == "" {
			errTitle = what
		}
		ev = append(ev, lines...)
	}
	if ev == nil {
		return quiet()
	}
	// The title names the channel that broke on an error, if any.
	if errTitle != "" {
		return raise(snapshot.Critical, errTitle, ev, replicationStoppedAdvice, nil)
	}
	if paused {
		return raise(snapshot.Info, fmt.Sprintf("%s %s ago without an error (paused)", title, fmtDuration(pausedFor)),
			ev, replicationPausedAdvice(w), nil)
	}
	return raise(snapshot.Warning, title, ev, replicationStoppedAdvice, nil)
}

// replicationPausedAdvice names the statements in the server's spelling
// (MySQL 8.4 and its calendar versions take only START REPLICA).
func replicationPausedAdvice(w *window) string {
	r := w.version().Replica()
	return "If the pause is deliberate (a backup with --safe-slave-backup, a dump with --dump-slave, maintenance), " +
		"nothing to do: the lag it builds is caught up after " + r.Start + ". If nobody stopped it, read " + r.Show +
		" and start it."
}

// stoppedFor is how long ago the monitor last saw ch with both threads
// running: the newest earlier frame of the window where they ran. seen is
// false when no frame of the window shows them running (the monitor started
// after the stop, or the stop is older than the window).
func stoppedFor(w *window, ch snapshot.Channel) (ago time.Duration, seen bool) {
	for i := len(w.frames) - 2; i >= 0; i-- {
		s := w.frames[i].Snapshot
		then, found := channelNamed(s, ch.Name)
		if found && then.SQLOK() && then.IOOK() {
			// It stopped in the interval after that frame.
			next := w.frames[i+1].Snapshot.Time
			return w.snap.Time.Sub(next), true
		}
	}
	return 0, false
}

const replicationStoppedAdvice = "Read the last error before restarting the thread: a duplicate key or a missing row " +
	"means the replica's data drifted from its source, and skipping the event hides that. An IO error is " +
	"the source's reachability, credentials or purged binary logs."

// stoppedLines describes ch if a thread of it does not run: the evidence,
// a title, and whether it stopped on an error.
func stoppedLines(ch snapshot.Channel) (lines []string, title string, failed bool) {
	var down []string
	if !ch.SQLOK() {
		down = append(down, "SQL")
	}
	if !ch.IOOK() {
		down = append(down, "IO")
	}
	if down == nil {
		return nil, "", false
	}
	threads := strings.Join(down, " and ") + " thread"
	if len(down) > 1 {
		threads += "s"
	}
	lines = []string{fmt.Sprintf("%s%s: %s not running (IO %s, SQL %s)", ch.Label(), sourceOf(ch), threads,
		orDash(ch.IORunning), orDash(ch.SQLRunning))}
	title = fmt.Sprintf("%s of %s stopped", threads, ch.Label())
	if !ch.SQLOK() && ch.LastSQLErrno != 0 {
		lines = append(lines, fmt.Sprintf("  Last_SQL_Error %d: %s", ch.LastSQLErrno, clip(ch.LastSQLError, 300)))
		title += fmt.Sprintf(" by error %d", ch.LastSQLErrno)
		failed = true
	}
	if !ch.IOOK() && ch.LastIOErrno != 0 {
		lines = append(lines, fmt.Sprintf("  Last_IO_Error %d: %s", ch.LastIOErrno, clip(ch.LastIOError, 300)))
		if !failed {
			title += fmt.Sprintf(" by error %d", ch.LastIOErrno)
		}
		failed = true
	}
	if ch.GTIDApplied != "" {
		lines = append(lines, "  applied up to "+ch.GTIDApplied)
	}
	return lines, title, failed
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
