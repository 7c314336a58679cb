package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Innodb_log_waits counts times the redo log buffer was too small and a
// statement waited for it to be flushed (LOG-02). Any wait is worth knowing
// (MT flags any); more than LogWaitsWarnPerSec is a warning (MX/APA).
const logWaits = "Innodb_log_waits"

// IDLogBufferWaits names the findings of log_buffer_waits: a contract (the
// README's findings table), stable, never reused.
const IDLogBufferWaits = "log_buffer_waits"

// LogWaitsConfig holds log_buffer_waits' thresholds, each with its source and the
// trap it avoids.
type LogWaitsConfig struct {
	// LogWaitsWarnPerSec: Innodb_log_waits per second (LOG-02, MX/APA > 10);
	// any non-zero rate is worth an info (MT flags any ratio > 0).
	// Trap: a cumulative count since start-up; judged as a rate.
	LogWaitsWarnPerSec float64
}

func (c *LogWaitsConfig) defaults() {
	*c = LogWaitsConfig{
		LogWaitsWarnPerSec: 10,
	}
}

// logBufferWaitsRule is log_buffer_waits in the rules table (rule.go).
// LOG-02: MX/APA rate > 10/s over 15 m. Trap: one large transaction fills the
// log buffer once (LOG-02's own trap), for a second or two: a 5-s hold (three
// quarters of it above the line) passes it. Every wait stalls a commit behind
// the flush of the buffer, so the 30 s the other spill rules hold was 30 s of
// stalled commits before anything was said (17 waits/s raised at 30 s).
var logBufferWaitsRule = rule{id: IDLogBufferWaits, check: checkLogBufferWaits, persist: persistFor(5*time.Second, 10*time.Second), held: true}

func checkLogBufferWaits(w *window, c *Config) verdict {
	if r := w.statusNA(logWaits); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	rate, ok := w.rate(logWaits)
	if !ok || rate <= 0 {
		return quiet()
	}
	sev := snapshot.Info
	if rate > c.LogWaitsWarnPerSec {
		sev = snapshot.Warning
	}
	ev := w.counterLines(logWaits, "Innodb_log_writes", "Innodb_log_write_requests", "Innodb_os_log_written")
	size := ""
	if b, ok := w.snap.VarFloat("innodb_log_buffer_size"); ok {
		size = " (now " + fmtBytes(b) + ")"
		ev = append(ev, "innodb_log_buffer_size="+fmtBytes(b))
	}
	return raise(sev, fmt.Sprintf("%s waits/s for the redo log buffer", fmtRate(rate)), ev,
		"Raise innodb_log_buffer_size"+size+" (16M–64M is usual; beyond that look for huge single "+
			"transactions and split them).", nil)
}
