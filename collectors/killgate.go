package collectors

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// The kill gate is the one place a KILL of a DBA's choosing is decided,
// for every key that sends one (k, K, the lock view's root blocker, X by
// filter) and whichever statement carries it (KILL, or a managed
// service's procedure): just before it, on the connection that will send
// it, the thread's row is read again and compared with what the dialog
// showed (snapshot.KillTarget). Anything else than the session and the
// statement the DBA confirmed gets nothing, and the reason.

// killRow is a thread as the gate reads it just before the KILL.
type killRow struct {
	// Found is false when the server no longer has the thread.
	Found   bool
	Process snapshot.Process
	// Started is when its statement (or idle spell) began, by the
	// monitor's clock.
	Started time.Time
	// ServerStart is when the server that answered started; zero when
	// unknown.
	ServerStart time.Time
}

const (
	// killMaxAge is how old the frame a dialog showed may be when its KILL
	// is sent: older, the DBA confirmed something long past (paused, or
	// the dialog left open), and is asked to look again.
	killMaxAge = time.Minute
	// killStartSlack is how far two readings of one statement's start may
	// differ: a server that counts whole seconds rounds each down, and a
	// frame's time is its tick's start, before the processlist was read.
	killStartSlack = 1500 * time.Millisecond
	// killRestartSlack is how far two readings of a server's start may
	// differ (Uptime is whole seconds).
	killRestartSlack = 2 * time.Second
)

// killVerdict is why the KILL of t must not be sent given the row read now,
// or "" when the server still runs the session and statement confirmed.
func killVerdict(t snapshot.KillTarget, row killRow, now time.Time) string {
	id := t.ID
	if why := killFrameVerdict(t, now); why != "" {
		return why
	}
	if !row.ServerStart.IsZero() && absDuration(row.ServerStart.Sub(t.ServerStart)) > killRestartSlack {
		return fmt.Sprintf("the server restarted since the dialog opened (up since %s, was %s): thread %d is another session",
			row.ServerStart.Format("15:04:05"), t.ServerStart.Format("15:04:05"), id)
	}
	if row.ServerStart.IsZero() {
		return "the server did not say when it started: a restart cannot be ruled out"
	}
	if !row.Found {
		return fmt.Sprintf("thread %d is no longer on the server", id)
	}
	p := &row.Process
	if why := infer.KillRefusal(p); why != "" {
		return fmt.Sprintf("thread %d is now %s", id, why)
	}
	if p.User != t.User || p.Host != t.Host {
		return fmt.Sprintf("thread %d is now %s@%s (was %s@%s)", id, p.User, p.Host, t.User, t.Host)
	}
	if p.DB != t.DB {
		return fmt.Sprintf("thread %d now uses db %q (was %q)", id, p.DB, t.DB)
	}
	return killStatementVerdict(t, row)
}

// killFrameVerdict judges what the dialog showed on its own.
func killFrameVerdict(t snapshot.KillTarget, now time.Time) string {
	switch {
	case t.ID <= 0:
		return fmt.Sprintf("invalid thread id %d", t.ID)
	case t.Mode != snapshot.ModeLive:
		return "the dialog showed a frame that is not live (a replay or an import): the server now is not what it showed"
	case t.Seen.IsZero():
		return "the dialog showed no frame time"
	case now.Sub(t.Seen) > killMaxAge:
		return fmt.Sprintf("the frame the dialog showed is %s old: look again and confirm on a fresh one",
			now.Sub(t.Seen).Truncate(time.Second))
	case t.ServerStart.IsZero():
		return "the frame the dialog showed did not say when the server started: a restart since cannot be ruled out"
	}
	if why := infer.KillRefusal(&snapshot.Process{User: t.User, Command: t.Command}); why != "" {
		return fmt.Sprintf("thread %d is %s", t.ID, why)
	}
	return ""
}

// killStatementVerdict compares the statement: the same text (both masked
// alike, as the dialog showed it), the same command, and begun when the
// confirmed one began, not later (the same text run again is another
// statement).
func killStatementVerdict(t snapshot.KillTarget, row killRow) string {
	id, p := t.ID, &row.Process
	now, was := snapshot.MaskSecrets(p.Info), snapshot.MaskSecrets(t.Info)
	switch {
	case now != was && now == "":
		return fmt.Sprintf("thread %d's statement %s ended (it is now %s)", id, quoteSQL(was), idleWord(p.Command))
	case now != was && was == "":
		return fmt.Sprintf("thread %d now runs %s (was %s)", id, quoteSQL(now), idleWord(t.Command))
	case now != was:
		return fmt.Sprintf("thread %d now runs %s (was %s)", id, quoteSQL(now), quoteSQL(was))
	case !strings.EqualFold(p.Command, t.Command):
		return fmt.Sprintf("thread %d is now in %s (was %s)", id, p.Command, t.Command)
	case row.Started.Sub(t.Started) > killStartSlack:
		what := "statement " + quoteSQL(now)
		if now == "" {
			what = "idle spell"
		}
		return fmt.Sprintf("thread %d's %s began at %s, the confirmed one at %s: it is another run",
			id, what, row.Started.Format("15:04:05"), t.Started.Format("15:04:05"))
	}
	return ""
}

// quoteSQL is a statement's text shortened to one line for a reason.
func quoteSQL(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return "`" + s + "`"
}

func idleWord(command string) string {
	if command == "" {
		return "idle"
	}
	return "idle (" + command + ")"
}
