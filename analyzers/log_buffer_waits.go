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

// logBufferWaitsRule is log_buffer_waits in the rules table (rule.go).
// LOG-02: MX/APA rate > 10/s over 15 m. Trap: one large transaction fills the
// log buffer once (LOG-02's own trap).
var logBufferWaitsRule = rule{id: IDLogBufferWaits, check: checkLogBufferWaits, persist: persistFor(30*time.Second, 10*time.Second)}

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
