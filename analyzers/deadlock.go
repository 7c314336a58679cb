package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// IDDeadlock names the findings of deadlock: a contract (the README's findings
// table), stable, never reused.
const IDDeadlock = "deadlock"

// DeadlockConfig holds deadlock's thresholds, each with its source and the trap it
// avoids.
type DeadlockConfig struct {
	// DeadlockRecent: a LATEST DETECTED DEADLOCK newer than the previous
	// sample stands this long after it happened, as an info (by the InnoDB monitor's own
	// clock); on the first sample, one at most this old is raised. Trap: last
	// week's deadlock, which every InnoDB status keeps printing.
	DeadlockRecent time.Duration

	// DeadlockStormWarn / DeadlockStormCrit: deadlocks within
	// DeadlockStormWindow that make a storm, a warning / critical. TRX-04: no
	// published rate ("show every new deadlock as an info event"); one a
	// minute or an hour is routine on a busy OLTP server, 5 a minute is the
	// same rows fought over again and again, 30 a minute (one every 2 s) is
	// transactions failing faster than anyone can read them (UNKNOWN; design).
	// Trap: one deadlock in a write burst raised a warning standing 60 s
	// (the routine-work review); single deadlocks are info, standing DeadlockRecent.
	DeadlockStormWarn   int
	DeadlockStormCrit   int
	DeadlockStormWindow time.Duration
}

func (c *DeadlockConfig) defaults() {
	*c = DeadlockConfig{
		DeadlockRecent:      30 * time.Second,
		DeadlockStormWarn:   5,
		DeadlockStormCrit:   30,
		DeadlockStormWindow: time.Minute,
	}
}

// deadlockRule is deadlock in the rules table (rule.go). One sample proves
// the duration (ACTIVE N sec, LOCK WAIT N sec), and a deadlock is an event.
var deadlockRule = rule{id: IDDeadlock, check: checkDeadlock, persist: persistFor(1*time.Second, 1*time.Second)}

// InnoDB found a deadlock and rolled one transaction back (TRX-04): the
// application got an error it must retry. One now and then is routine on a
// busy OLTP server: it is an info standing DeadlockRecent, raised when the
// LATEST DETECTED DEADLOCK is newer than the previous sample's (by the InnoDB
// monitor's own clock, both times printed by the same server so time zones
// cannot skew it; without a clock, its text changed since the previous
// sample). A storm is not: DeadlockStormWarn or more deadlocks within
// DeadlockStormWindow (Innodb_deadlocks where the server has it, else the
// distinct deadlocks the InnoDB status showed) is a warning, DeadlockStormCrit
// a critical.
func checkDeadlock(w *window, c *Config) verdict {
	if r := innodbNA(w); r != "" {
		return notApplicable(r)
	}
	in := w.snap.InnoDB
	fresh := in != nil && in.LatestDeadlock != "" && deadlockIsNew(w, c)
	n, over, src := deadlocksWithin(w, c.DeadlockStormWindow)
	storm := c.DeadlockStormWarn > 0 && n >= float64(c.DeadlockStormWarn)
	if !fresh && !storm {
		return quiet()
	}
	sev := snapshot.Info
	if storm {
		sev = snapshot.Warning
		if c.DeadlockStormCrit > 0 && n >= float64(c.DeadlockStormCrit) {
			sev = snapshot.Critical
		}
	}
	var ev []string
	if storm {
		ev = append(ev, fmt.Sprintf("%.0f deadlocks in the last %s (%s): %.1f a minute; a storm from %d in %s",
			n, fmtDuration(over), src, n/over.Minutes(), c.DeadlockStormWarn, fmtDuration(c.DeadlockStormWindow)))
	} else if n > 0 {
		ev = append(ev, fmt.Sprintf("%.0f deadlock(s) in the last %s (%s): one now and then is routine on a busy server",
			n, fmtDuration(over), src))
	}
	d := parse.Deadlock{}
	if in != nil && in.LatestDeadlock != "" {
		d = parse.ParseDeadlock(in.LatestDeadlock)
	}
	if in != nil && !in.LatestDeadlockTime.IsZero() {
		line := "latest deadlock at " + in.LatestDeadlockTime.Format("2006-01-02 15:04:05") + " (server clock)"
		if fresh {
			line = "deadlock at " + in.LatestDeadlockTime.Format("2006-01-02 15:04:05") + " (server clock)"
		}
		if !in.Time.IsZero() {
			line += fmt.Sprintf(", %s before this sample", fmtDuration(in.Time.Sub(in.LatestDeadlockTime)))
		}
		ev = append(ev, line)
	}
	var threads []int64
	for _, t := range d.Trx {
		ev = append(ev, deadlockTrxLines(t, d.Victim)...)
		if t.ThreadID > 0 {
			threads = append(threads, t.ThreadID)
		}
	}
	ev = appendNonEmpty(ev, w.counterLine("Innodb_deadlocks"))
	title := deadlockTitle(in, d)
	advice := "InnoDB already resolved it by rolling one back; the application must retry that transaction. If " +
		"deadlocks recur, have every transaction touch rows in the same order, keep transactions short, " +
		"and index the WHERE columns so statements lock fewer rows."
	if storm {
		title = fmt.Sprintf("deadlock storm: %.0f deadlocks in %s; the latest: %s", n, fmtDuration(over), title)
		advice = "Transactions keep failing and retrying: find the rows they fight over (the latest deadlock " +
			"above names the statements and the index), make every transaction lock them in the same order " +
			"(e.g. sorted by primary key), keep transactions short, and index the WHERE columns so they lock fewer rows. " +
			"innodb_print_all_deadlocks=ON logs every one, not only the latest."
	}
	return raise(sev, title, ev, advice, threads)
}

// deadlockKeptStatus is the counter the storm is counted from in older,
// thinned frames.
var deadlockKeptStatus = []string{"Innodb_deadlocks"}

// deadlocksWithin counts the deadlocks over the last d: from Innodb_deadlocks
// when the server exports it (MariaDB, Percona), else the distinct latest
// deadlocks the InnoDB status showed in the window's frames (at most one a
// read, so a lower bound).
func deadlocksWithin(w *window, d time.Duration) (float64, time.Duration, string) {
	if sp, ok := w.spanOver("Innodb_deadlocks", d, 0); ok {
		return max(sp.delta, 0), max(sp.elapsed, time.Second), "Innodb_deadlocks"
	}
	seen := map[string]bool{}
	var oldest time.Time
	for i := len(w.frames) - 1; i >= 0; i-- {
		f := w.frames[i]
		if f == nil || f.Snapshot == nil || w.snap.Time.Sub(f.Snapshot.Time) > d {
			break
		}
		oldest = f.Snapshot.Time
		in := f.Snapshot.InnoDB
		if in == nil || in.LatestDeadlock == "" {
			continue
		}
		key := in.LatestDeadlock
		if !in.LatestDeadlockTime.IsZero() {
			// Both times by the server's clock: the deadlock must lie within d
			// of the current InnoDB status's time.
			if now := w.snap.InnoDB; now != nil && !now.Time.IsZero() && now.Time.Sub(in.LatestDeadlockTime) > d {
				continue // happened before the window
			}
			key = in.LatestDeadlockTime.String() + key
		}
		seen[key] = true
	}
	n := float64(len(seen))
	if n > 0 && len(w.frames) > 0 {
		if p := w.frames[0].Snapshot; p != nil && p.InnoDB != nil && p.InnoDB.LatestDeadlock != "" &&
			w.snap.Time.Sub(p.Time) <= d && p.InnoDB.LatestDeadlockTime.IsZero() {
			n-- // the deadlock the window began with happened before it
		}
	}
	return max(n, 0), max(w.snap.Time.Sub(oldest), time.Second), "distinct deadlocks in the InnoDB status"
}

// deadlockIsNew: the deadlock happened since the previous sample (and stands
// for DeadlockRecent after it).
func deadlockIsNew(w *window, c *Config) bool {
	in := w.snap.InnoDB
	if !in.LatestDeadlockTime.IsZero() && !in.Time.IsZero() {
		age := in.Time.Sub(in.LatestDeadlockTime)
		return age >= -time.Second && age <= c.DeadlockRecent
	}
	for i := len(w.frames) - 2; i >= 0; i-- {
		if p := w.frames[i].Snapshot.InnoDB; p != nil && p != in {
			return p.LatestDeadlock != in.LatestDeadlock
		}
	}
	return false
}

func deadlockTitle(in *snapshot.InnoDBStatus, d parse.Deadlock) string {
	if in == nil {
		return "deadlock"
	}
	var who []string
	for _, t := range d.Trx {
		if t.ThreadID > 0 {
			who = append(who, fmt.Sprintf("thread %d", t.ThreadID))
		}
	}
	title := "deadlock"
	if !in.LatestDeadlockTime.IsZero() {
		title += " at " + in.LatestDeadlockTime.Format("15:04:05")
	}
	if len(who) > 0 {
		title += " between " + strings.Join(who, " and ")
	}
	if t := victim(d); t != nil && t.ThreadID > 0 {
		title += fmt.Sprintf("; thread %d's transaction was rolled back", t.ThreadID)
	}
	return title
}

func victim(d parse.Deadlock) *parse.DeadlockTrx {
	for i := range d.Trx {
		if d.Trx[i].Number == d.Victim {
			return &d.Trx[i]
		}
	}
	return nil
}

// deadlockTrxLines describe one transaction: who, what it ran, its locks.
func deadlockTrxLines(t parse.DeadlockTrx, victimNo int) []string {
	head := fmt.Sprintf("(%d) trx %s, thread %d", t.Number, t.ID, t.ThreadID)
	if t.Who != "" {
		head += " " + t.Who
	}
	head += fmt.Sprintf(", active %d s", t.ActiveSeconds)
	if t.Number == victimNo {
		head += ", ROLLED BACK"
	}
	if t.Query != "" {
		head += ": " + statement(t.Query)
	}
	lines := []string{head}
	for _, l := range t.Holds {
		lines = append(lines, "    holds "+l)
	}
	for _, l := range t.Waits {
		lines = append(lines, "    waits for "+l)
	}
	return lines
}
