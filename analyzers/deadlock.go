package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// InnoDB found a deadlock and rolled one transaction back (TRX-04): the
// application got an error it must retry. Raised when the LATEST DETECTED
// DEADLOCK is newer than the previous sample's: by the InnoDB monitor's own
// clock it is at most DeadlockRecent old (both times are printed by the same
// server, so time zones cannot skew it), or, without a clock, its text
// changed since the previous sample.
func checkDeadlock(w *window, c *Config) verdict {
	if r := innodbNA(w); r != "" {
		return notApplicable(r)
	}
	in := w.snap.InnoDB
	if in == nil || in.LatestDeadlock == "" || !deadlockIsNew(w, c) {
		return quiet()
	}
	d := snapshot.ParseDeadlock(in.LatestDeadlock)
	var ev []string
	if !in.LatestDeadlockTime.IsZero() {
		line := "deadlock at " + in.LatestDeadlockTime.Format("2006-01-02 15:04:05") + " (server clock)"
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
	return raise(snapshot.Warning, deadlockTitle(in, d), ev,
		"InnoDB already resolved it by rolling one back; the application must retry that transaction. If "+
			"deadlocks recur, have every transaction touch rows in the same order, keep transactions short, "+
			"and index the WHERE columns so statements lock fewer rows.", threads)
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

func deadlockTitle(in *snapshot.InnoDBStatus, d snapshot.Deadlock) string {
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

func victim(d snapshot.Deadlock) *snapshot.DeadlockTrx {
	for i := range d.Trx {
		if d.Trx[i].Number == d.Victim {
			return &d.Trx[i]
		}
	}
	return nil
}

// deadlockTrxLines describe one transaction: who, what it ran, its locks.
func deadlockTrxLines(t snapshot.DeadlockTrx, victimNo int) []string {
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
