package analyzers

import (
	"fmt"
	"math"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Table cache thrash (TBL-01): the table open cache is too small for the
// tables in use, so statements open (and the cache closes) tables over and
// over. Judged per interval on Table_open_cache_hits/_misses (MariaDB 10.1+,
// MySQL 5.6+), falling back to Opened_tables on servers without them.

// TableCacheConfig holds table_cache_thrash's thresholds. Embedded in Config.
type TableCacheConfig struct {
	// TableCacheMissesWarn: table opens that missed the cache, per second
	// (Table_open_cache_misses, else Opened_tables), at or above which the
	// rule judges the hit share (UNKNOWN; design floor). Trap: a near-zero
	// denominator, and the few tables the monitor's own SHOW statements and
	// an occasional DDL or FLUSH TABLES open.
	TableCacheMissesWarn float64
	// TableCacheHitWarn: per-interval hit % = hits / (hits + misses) below
	// which the cache thrashes (TBL-01: MT badprint "Table cache hit rate"
	// < 20 %). Trap: MT's since-start-up ratio, which a long warm run hides
	// a thrashing hour in; judged per interval instead.
	TableCacheHitWarn float64
}

func (c *TableCacheConfig) defaults() {
	*c = TableCacheConfig{TableCacheMissesWarn: 10, TableCacheHitWarn: 20}
}

const (
	tcHits      = "Table_open_cache_hits"
	tcMisses    = "Table_open_cache_misses"
	tcOverflows = "Table_open_cache_overflows"
	tcOpened    = "Opened_tables"
)

// IDTableCacheThrash names the findings of table_cache_thrash: a contract (the
// README's findings table), stable, never reused.
const IDTableCacheThrash = "table_cache_thrash"

// tableCacheThrashRule is table_cache_thrash in the rules table (rule.go).
// Per-interval rates of caches: PTS's 5 x 1 s for a sustained rate (MT gives
// no duration; APA/ZBX's minutes would miss a thrash that a DBA needs named
// within seconds).
var tableCacheThrashRule = rule{id: IDTableCacheThrash, check: checkTableCacheThrash,
	persist: persistFor(5*time.Second, 10*time.Second), held: true}

func checkTableCacheThrash(w *window, c *Config) verdict {
	if r := w.statusNA(tcOpened); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	opened, ok := w.rate(tcOpened)
	if !ok {
		return quiet()
	}
	misses, hits, share := opened, 0.0, math.NaN()
	m, okM := w.rate(tcMisses)
	h, okH := w.rate(tcHits)
	if okM && okH {
		misses, hits = m, h
		if misses+hits > 0 {
			share = 100 * hits / (hits + misses)
		}
	}
	if misses < c.TableCacheMissesWarn {
		return quiet()
	}
	if !math.IsNaN(share) && share >= c.TableCacheHitWarn {
		return quiet()
	}
	var ev []string
	if !math.IsNaN(share) {
		ev = append(ev, fmt.Sprintf("table cache hit rate %.0f %% this interval (%s hits/s, %s misses/s)",
			share, fmtRate(hits), fmtRate(misses)))
	}
	ev = append(ev, w.counterLines(tcOpened, tcOverflows, "Opened_table_definitions", "Opened_files")...)
	size, sizeOK := w.snap.VarFloat("table_open_cache")
	if open, ok := w.snap.StatusFloat("Open_tables"); ok && sizeOK {
		ev = append(ev, fmt.Sprintf("Open_tables %.0f of table_open_cache %.0f", open, size))
	}
	if defs, ok := w.snap.StatusFloat("Open_table_definitions"); ok {
		if dsize, ok := w.snap.VarFloat("table_definition_cache"); ok {
			ev = append(ev, fmt.Sprintf("Open_table_definitions %.0f of table_definition_cache %.0f", defs, dsize))
		}
	}
	if inst, ok := w.variable("table_open_cache_instances"); ok {
		ev = append(ev, "table_open_cache_instances="+inst)
	}
	opening := w.processes().inStates("Opening tables", "Opening table", "closing tables")
	ev = append(ev, threadLines(opening)...)
	if len(opening) == 0 {
		// The opens are too quick to catch in their state: name what runs.
		var running []*snapshot.Process
		for i := range w.processes().all {
			if p := &w.processes().all[i]; isRunningStatement(p) {
				running = append(running, p)
			}
		}
		for _, l := range topStatements(running) {
			ev = append(ev, "running now: "+l)
		}
	}
	title := fmt.Sprintf("table cache thrashing: %s table opens/s", fmtRate(misses))
	if !math.IsNaN(share) {
		title += fmt.Sprintf(", %.0f %% hit rate", share)
	}
	advice := "Raise table_open_cache (SET GLOBAL, then in my.cnf)"
	if sizeOK {
		advice = fmt.Sprintf("Raise table_open_cache from %.0f (SET GLOBAL, then in my.cnf)", size)
	}
	advice += " to at least the tables in use times the connections using them at once (MySQL manual, " +
		"\"How MySQL Opens and Closes Tables\": max_connections × tables per join), and table_definition_cache " +
		"above the number of tables; check open_files_limit allows it (each open MyISAM/Aria table holds " +
		"files). Look for a cause first: FLUSH TABLES in a loop, or temporary/partitioned tables opened per " +
		"statement."
	return raise(snapshot.Warning, title, ev, advice, ids(opening, maxThreadIDs))
}
