package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A query cache that does not pay (QC-03/QC-04): over a minute it stores at
// least as many results as it serves (inserts >= hits, the the InnoDB tuning guide
// tuning guide's "low Qcache_hits to Qcache_inserts"), or it keeps evicting
// for want of memory (MT: more than 98 low-memory prunes a day). Either alone
// is info; both together is a warning: the cache costs its lock on every
// write and gives nothing back. Never judged on a cache that is off.
const (
	qcHits    = "Qcache_hits"
	qcInserts = "Qcache_inserts"
	qcPrunes  = "Qcache_lowmem_prunes"
)

// qcYield is the cache's work over the yield window.
type qcYield struct {
	hits, inserts, prunes, selects span
	haveSelects                    bool
}

// IDQueryCacheInefficient names the findings of query_cache_inefficient: a
// contract (the README's findings table), stable, never reused.
const IDQueryCacheInefficient = "query_cache_inefficient"

// QCYieldConfig holds query_cache_inefficient's thresholds, each with its source
// and the trap it avoids.
type QCYieldConfig struct {
	// QCYieldWindow: the query cache's hits, inserts and prunes are compared
	// over this much history (QC-03: ">= 1 min window (design)"), and only
	// once QCYieldMinSpan of it exists since the last restart or FLUSH
	// STATUS. QCYieldMinLookups: hits+inserts in the window below which the
	// ratio is noise (§1.4, UNKNOWN). The cache does not pay when inserts >=
	// hits (the InnoDB tuning guide: a low Qcache_hits to Qcache_inserts ratio).
	// QCPrunesPerDayWarn: low-memory prunes per day (QC-04, MT > 98).
	// Traps avoided: a cache that is off is never judged; a cache still
	// filling after start-up has free memory and no prunes.
	QCYieldWindow      time.Duration
	QCYieldMinSpan     time.Duration
	QCYieldMinLookups  float64
	QCPrunesPerDayWarn float64
}

func (c *QCYieldConfig) defaults() {
	*c = QCYieldConfig{
		QCYieldWindow:      time.Minute,
		QCYieldMinSpan:     30 * time.Second,
		QCYieldMinLookups:  60,
		QCPrunesPerDayWarn: 98,
	}
}

// queryCacheInefficientRule is query_cache_inefficient in the rules table
// (rule.go). Counted over SightingWindow / QCYieldWindow already.
var queryCacheInefficientRule = rule{id: IDQueryCacheInefficient, check: checkQueryCacheInefficient, persist: persistFor(1*time.Second, 5*time.Second)}

func checkQueryCacheInefficient(w *window, c *Config) verdict {
	if r := queryCacheNA(w); r != "" {
		return notApplicable(r)
	}
	if r := w.statusNA(qcHits, qcInserts, qcPrunes); r != "" {
		return notApplicable(r)
	}
	y, ok := qcYieldOver(w, c)
	if !ok || y.hits.delta+y.inserts.delta < c.QCYieldMinLookups {
		return quiet()
	}
	noPay := y.inserts.delta >= y.hits.delta
	churn := y.prunes.perSec()*86400 > c.QCPrunesPerDayWarn
	if !noPay && !churn {
		return quiet()
	}
	sev := snapshot.Info
	if noPay && churn {
		sev = snapshot.Warning
	}
	return raise(sev, qcYieldTitle(y, noPay, churn), qcYieldEvidence(w, y), qcYieldAdvice(noPay, churn), nil)
}

// qcYieldOver reads the counters over QCYieldWindow; false until the window
// holds QCYieldMinSpan of history since the last restart or FLUSH STATUS.
func qcYieldOver(w *window, c *Config) (qcYield, bool) {
	var y qcYield
	var ok1, ok2, ok3 bool
	y.hits, ok1 = w.spanOver(qcHits, c.QCYieldWindow, c.QCYieldMinSpan)
	y.inserts, ok2 = w.spanOver(qcInserts, c.QCYieldWindow, c.QCYieldMinSpan)
	y.prunes, ok3 = w.spanOver(qcPrunes, c.QCYieldWindow, c.QCYieldMinSpan)
	y.selects, y.haveSelects = w.spanOver("Com_select", c.QCYieldWindow, c.QCYieldMinSpan)
	return y, ok1 && ok2 && ok3
}

func qcYieldTitle(y qcYield, noPay, churn bool) string {
	secs := y.hits.elapsed.Round(time.Second)
	switch {
	case noPay && churn:
		return fmt.Sprintf("query cache does not pay: %s inserts for %s hits and %s low-memory prunes in %s",
			fmtCount(int64(y.inserts.delta)), fmtCount(int64(y.hits.delta)), fmtCount(int64(y.prunes.delta)), secs)
	case noPay:
		return fmt.Sprintf("query cache stores more than it serves: %s inserts for %s hits in %s",
			fmtCount(int64(y.inserts.delta)), fmtCount(int64(y.hits.delta)), secs)
	}
	return fmt.Sprintf("query cache evicts for lack of memory: %s low-memory prunes in %s",
		fmtCount(int64(y.prunes.delta)), secs)
}

func qcYieldEvidence(w *window, y qcYield) []string {
	ev := []string{fmt.Sprintf("over %s: Qcache_hits %s/s, Qcache_inserts %s/s, Qcache_lowmem_prunes %s/s",
		y.hits.elapsed.Round(time.Second), fmtRate(y.hits.perSec()), fmtRate(y.inserts.perSec()),
		fmtRate(y.prunes.perSec()))}
	ev = appendNonEmpty(ev, qcHitShare(w, y), qcSettings(w), qcMemory(w))
	return append(ev, w.counterLines(qcHits, qcInserts, qcPrunes)...)
}

// qcHitShare is hits as a share of SELECTs. MariaDB counts cache hits in
// Com_select already (MDEV-4981); MySQL does not (QC-03 formula flip).
func qcHitShare(w *window, y qcYield) string {
	if !y.haveSelects {
		return ""
	}
	total := y.selects.delta
	if w.snap.Server.Flavor != snapshot.FlavorMariaDB {
		total += y.hits.delta
	}
	if total <= 0 {
		return ""
	}
	return fmt.Sprintf("hit %.0f %% of SELECTs (MT calls < 20 %% not worth the cache)", 100*y.hits.delta/total)
}

func qcMemory(w *window) string {
	free, ok1 := w.snap.StatusFloat("Qcache_free_memory")
	size, ok2 := w.snap.VarFloat("query_cache_size")
	if !ok1 || !ok2 || size <= 0 {
		return ""
	}
	line := fmt.Sprintf("free %s of %s (%.0f %% used)", fmtBytes(free), fmtBytes(size), 100-100*free/size)
	if limit, ok := w.snap.VarFloat("query_cache_limit"); ok {
		line += ", query_cache_limit=" + fmtBytes(limit)
	}
	return line
}

func qcYieldAdvice(noPay, churn bool) string {
	switch {
	case noPay:
		s := "Results are stored and invalidated before anyone reads them again: switch the cache off " +
			"(SET GLOBAL query_cache_type=0; SET GLOBAL query_cache_size=0, and the same in my.cnf); every " +
			"write then stops paying for it under the cache lock."
		if churn {
			s += " Growing it would not help: writes invalidate entries faster than they are reused."
		}
		return s
	}
	return "The cache pays but runs out of memory: raise query_cache_size a step (MT: up to 128M, no " +
		"further — a bigger cache makes each invalidation slower under its single lock), or keep big " +
		"results out with a lower query_cache_limit."
}
