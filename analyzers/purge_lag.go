package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Purge cannot keep up (TRX-02): the history list (undo of committed
// transactions not yet purged) is long and grew at each of the last
// PurgeLagSteps steps, by at least PurgeLagMinGrowth entries a second in
// each. Usually an old read view holds purge back: nothing
// newer than the oldest open snapshot can be purged. The rule names it.

// IDPurgeLag names the findings of purge_lag: a contract (the README's
// findings table), stable, never reused.
const IDPurgeLag = "purge_lag"

// PurgeLagConfig holds purge_lag's thresholds, each with its source and the trap
// it avoids.
type PurgeLagConfig struct {
	// PurgeLagWarn / PurgeLagCrit: History list length (TRX-02: APA
	// MysqlInnodbHistory_lenTooLong > 50,000 for 2 m is a warning; MT's
	// badprint > 100,000 is used as the higher tier, MT-derived). The length
	// must also have grown at each of PurgeLagSteps steps of PurgeLagStep
	// (APA's "for 2m", read minute over minute). Trap avoided: a big batch
	// DELETE raises the length once, and purge then works it off: a length
	// that stopped growing raises nothing.
	PurgeLagWarn  int64
	PurgeLagCrit  int64
	PurgeLagStep  time.Duration
	PurgeLagSteps int

	// PurgeLagMinGrowth: entries per second the length must have grown by in
	// each step (UNKNOWN; argued). At 20/s it gains 72,000 an hour: from
	// PurgeLagWarn to PurgeLagCrit in about 40 minutes, the slowest growth
	// that becomes an incident within a working shift; each committed write
	// transaction adds one entry, so it is also ~20 writing transactions a
	// second that purge leaves behind. The live proof (a held read view, 4
	// clients updating rows) grows at the commit rate: 690 then 3,600/s
	// measured on MariaDB 10.11. Trap: a
	// length that is high at rest and drifts as purge works in batches
	// (innodb_purge_batch_size pages a round): +10 then +80 entries at 7,400
	// over two steps (128M pool, 256M redo, light writes) "grew at each step"
	// and raised a warning on a healthy server.
	PurgeLagMinGrowth float64
}

func (c *PurgeLagConfig) defaults() {
	*c = PurgeLagConfig{
		PurgeLagWarn:  50000,
		PurgeLagCrit:  100000,
		PurgeLagStep:  time.Minute,
		PurgeLagSteps: 2,
		// Entries per second in each step.
		PurgeLagMinGrowth: 20,
	}
}

// purgeLagRule is purge_lag in the rules table (rule.go). The wait's own age,
// and the growth over minutes, already prove the signal lasts; the InnoDB
// status is also shared by the ticks between two reads, so counting frames
// would count one sample.
var purgeLagRule = rule{id: IDPurgeLag, check: checkPurgeLag, persist: persistFor(1*time.Second, 5*time.Second)}

func checkPurgeLag(w *window, c *Config) verdict {
	now, ok := historyLength(w.snap)
	if !ok {
		if r := innodbNA(w); r != "" {
			return notApplicable(r)
		}
		return quiet()
	}
	if now <= c.PurgeLagWarn {
		return quiet()
	}
	points, ok := hllSteps(w, c)
	if !ok || !growingBy(append(points, now), c.PurgeLagMinGrowth*c.PurgeLagStep.Seconds()) {
		return quiet()
	}
	holder, hp := purgeHolder(w)
	// An old read view explains the growth at once. Without one, purge may
	// just be working off a burst of commits (TRX-02 trap): only a list that
	// was already long a whole span ago, and still grows, says it cannot keep up.
	heldBack := holder != nil && time.Duration(holder.ActiveSeconds)*time.Second >= c.PurgeLagStep
	if !heldBack && points[0] <= c.PurgeLagWarn {
		return quiet()
	}
	sev := snapshot.Warning
	if now > c.PurgeLagCrit {
		sev = snapshot.Critical
	}
	title := fmt.Sprintf("purge lags: history list length %s, up %s in %s", fmtCount(now),
		fmtCount(now-points[0]), (time.Duration(len(points)) * c.PurgeLagStep).Round(time.Second))
	if holder != nil {
		title += fmt.Sprintf("; oldest read view: %s, ACTIVE %d s", trxName(holder), holder.ActiveSeconds)
	}
	ev := []string{hllTrend(points, now, c.PurgeLagStep)}
	ev = appendNonEmpty(ev, holderLine(holder, hp), readViews(w), purgeThreads(w))
	var threads []int64
	if holder != nil && holder.ThreadID > 0 {
		threads = append(threads, holder.ThreadID)
	}
	return raise(sev, title, ev, purgeAdvice(holder), threads)
}

// hllSteps returns the length PurgeLagSteps, …, 1 steps ago, oldest first;
// false when the window does not reach back that far since a restart.
func hllSteps(w *window, c *Config) ([]int64, bool) {
	out := make([]int64, 0, c.PurgeLagSteps)
	for k := c.PurgeLagSteps; k >= 1; k-- {
		f := w.frameAgo(time.Duration(k) * c.PurgeLagStep)
		if f == nil {
			return nil, false
		}
		v, ok := historyLength(f.Snapshot)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, len(out) > 0
}

// frameAgo is the newest frame at least d older than the current one, with
// no restart between it and now, or nil.
func (w *window) frameAgo(d time.Duration) *snapshot.Frame {
	start := w.counterStart("", func(*snapshot.Frame) bool { return true })
	for i := len(w.frames) - 1; i >= 0 && start != nil; i-- {
		f := w.frames[i]
		if f == nil || f.Snapshot == nil || f.Snapshot.Time.Before(start.Snapshot.Time) {
			return nil
		}
		if w.snap.Time.Sub(f.Snapshot.Time) >= d {
			return f
		}
	}
	return nil
}

// growingBy reports whether each step grew by more than zero and at least
// minStep entries.
func growingBy(vs []int64, minStep float64) bool {
	for i := 1; i < len(vs); i++ {
		d := vs[i] - vs[i-1]
		if d <= 0 || float64(d) < minStep {
			return false
		}
	}
	return true
}

func hllTrend(points []int64, now int64, step time.Duration) string {
	s := "history list length"
	for i, v := range points {
		s += fmt.Sprintf(" %s (%s ago) →", fmtCount(v), (time.Duration(len(points)-i) * step).Round(time.Second))
	}
	return s + " " + fmtCount(now) + " now"
}

// purgeHolder is the transaction whose read view is oldest (the smallest
// "sees <" limit), else the oldest active transaction; and its connection.
func purgeHolder(w *window) (*snapshot.InnoDBTrx, *snapshot.Process) {
	in := w.snap.InnoDB
	if in == nil {
		return nil, nil
	}
	var best *snapshot.InnoDBTrx
	for i := range in.Transactions.Trx {
		t := &in.Transactions.Trx[i]
		if t.ReadViewSees > 0 && (best == nil || t.ReadViewSees < best.ReadViewSees) {
			best = t
		}
	}
	if best == nil {
		best = oldestActive(in.Transactions.Trx)
	}
	if best == nil {
		return nil, nil
	}
	return best, w.processes().byID(best.ThreadID)
}

func holderLine(t *snapshot.InnoDBTrx, p *snapshot.Process) string {
	if t == nil {
		return "no open read view or transaction is listed: purge itself is not keeping up"
	}
	s := fmt.Sprintf("holding purge back: %s, ACTIVE %d s", trxName(t), t.ActiveSeconds)
	if t.ReadViewSees > 0 {
		s += fmt.Sprintf(", its read view sees only trx < %d", t.ReadViewSees)
	}
	switch {
	case p != nil:
		s += ", " + threadLine(p)
	case t.ThreadID > 0:
		s += fmt.Sprintf(", connection %d", t.ThreadID)
	}
	if p == nil && t.Query != "" {
		s += ": " + statement(t.Query)
	}
	return s
}

func readViews(w *window) string {
	in := w.snap.InnoDB
	if in == nil || !in.Rows.Present {
		return ""
	}
	return fmt.Sprintf("%d read views open inside InnoDB; %d active transactions listed", in.Rows.ReadViewsOpen,
		in.Transactions.Active)
}

func purgeThreads(w *window) string {
	v, ok := w.variable("innodb_purge_threads")
	if !ok {
		return ""
	}
	return "innodb_purge_threads=" + v
}

func purgeAdvice(t *snapshot.InnoDBTrx) string {
	if t == nil {
		return "Purge is not keeping up with the rate of changes: raise innodb_purge_threads (up to 32), " +
			"and spread big batch DELETE/UPDATE jobs into smaller commits."
	}
	return fmt.Sprintf("Commit or roll back %s (KILL its connection if it was left open): every "+
		"change committed since its snapshot waits for it, the undo grows and reads slow down. Reports and "+
		"dumps that need a consistent snapshot belong on a replica.", trxName(t))
}

// trxName is "trx 5510281", or for a read-only transaction, which MariaDB
// lists by its memory address until it writes, "the read-only trx of
// connection 44".
func trxName(t *snapshot.InnoDBTrx) string {
	if strings.HasPrefix(t.ID, "0x") {
		if t.ThreadID > 0 {
			return fmt.Sprintf("the read-only trx of connection %d", t.ThreadID)
		}
		return "a read-only trx"
	}
	return "trx " + t.ID
}
