package analyzers

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A replication thread that does not run (REPL-02: APA 1 m, MX 2 m,
// critical): the replica falls further behind every second and
// Seconds_Behind shows NULL, not a number, so replication_lag cannot see
// it. Critical when the thread stopped on an error; a warning when both
// threads were stopped without one (STOP REPLICA by hand, maintenance).
func checkReplicationStopped(w *window, _ *Config) verdict {
	chans, v := channelsOf(w)
	if v != nil {
		return *v
	}
	var ev []string
	var title, errTitle string
	for _, ch := range chans {
		lines, what, failed := stoppedLines(ch)
		if lines == nil {
			continue
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
	return raise(snapshot.Warning, title, ev, replicationStoppedAdvice, nil)
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
