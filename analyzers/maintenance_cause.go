package analyzers

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A table rebuild (OPTIMIZE TABLE, ALTER TABLE with a copy or an in-place
// rebuild, CREATE INDEX, REPAIR) writes the whole table again: redo at the
// disk's pace, dirty pages the cleaner must flush, pool pages read and
// evicted, a temporary copy. The findings those effects raise are true
// (writers did wait) but a DBA must read which statement does it, how fast
// and when it ends, not a configuration alarm: "OPTIMIZE TABLE app.m
// (session 9) is writing redo at 38M/s; it ends by itself in about 8 s".
// They keep the severity the effect earns; the rebuild is named first.

// attributedRules are the findings a rebuild causes, and what it does to
// cause them. Not tmp_disk_tables nor sort_merge_passes: a rebuild's copy is
// a table of its own and InnoDB sorts a new index's keys itself, so neither
// counts in Created_tmp_disk_tables or Sort_merge_passes, and naming the
// rebuild there would blame it without evidence.
var attributedRules = map[string]rebuildEffect{
	IDCheckpointAgeHigh:  effectRedo,
	IDLogBufferWaits:     effectRedo,
	IDBufferPoolWaitFree: effectFlush,
	IDBufferPoolMiss:     effectPool,
	IDReadAheadEvicted:   effectPool,
	IDDiskSpaceLow:       effectTmp,
	IDCommitFsyncBound:   effectRedo,
	IDDiskSaturation:     effectFlush,
}

type rebuildEffect int

const (
	effectNone rebuildEffect = iota
	effectRedo
	effectFlush
	effectPool
	effectTmp
)

// rebuildRe reads the statements that rebuild a table, and the table.
var rebuildRe = regexp.MustCompile("(?is)^\\s*(OPTIMIZE\\s+(?:NO_WRITE_TO_BINLOG\\s+|LOCAL\\s+)?TABLES?|" +
	"ALTER\\s+(?:ONLINE\\s+|IGNORE\\s+)*TABLE|REPAIR\\s+(?:NO_WRITE_TO_BINLOG\\s+|LOCAL\\s+)?TABLES?|" +
	"CREATE\\s+(?:ONLINE\\s+|OR\\s+REPLACE\\s+)?(?:UNIQUE\\s+|FULLTEXT\\s+|SPATIAL\\s+)?INDEX\\s+[`\\w$]+\\s+ON)\\s+" +
	"([`\\w.$]+)")

// rebuild is one running statement rebuilding a table.
type rebuild struct {
	p     *snapshot.Process
	verb  string // "OPTIMIZE TABLE", "ALTER TABLE", ...
	table string
}

// rebuildsRunning are the current processlist's rebuilds, longest first; one
// waiting for its metadata lock writes nothing yet and is left out.
func rebuildsRunning(w *window) []rebuild {
	var out []rebuild
	for i := range w.snap.Processlist {
		p := &w.snap.Processlist[i]
		if p.Command != "Query" || strings.Contains(strings.ToLower(p.State), "waiting for table metadata lock") {
			continue
		}
		m := rebuildRe.FindStringSubmatch(p.Info)
		if m == nil {
			continue
		}
		verb := strings.ToUpper(strings.Join(strings.Fields(m[1]), " "))
		switch {
		case strings.HasPrefix(verb, "OPTIMIZE"):
			verb = "OPTIMIZE TABLE"
		case strings.HasPrefix(verb, "REPAIR"):
			verb = "REPAIR TABLE"
		case strings.HasPrefix(verb, "CREATE"):
			verb = "CREATE INDEX on"
		default:
			verb = "ALTER TABLE"
		}
		table := unquote(m[2])
		if !strings.Contains(table, ".") && p.DB != "" {
			table = p.DB + "." + table
		}
		out = append(out, rebuild{p: p, verb: verb, table: table})
	}
	slices.SortStableFunc(out, func(a, b rebuild) int { return int(b.p.TimeMS - a.p.TimeMS) })
	return out
}

// name reads "OPTIMIZE TABLE app.m (session 9)".
func (r rebuild) name() string { return fmt.Sprintf("%s %s (session %d)", r.verb, r.table, r.p.ID) }

// ends says when it ends by itself: from MariaDB's progress where the
// server reports it, else how long it has run.
func (r rebuild) ends() string {
	elapsed := time.Duration(r.p.TimeMS) * time.Millisecond
	if p := r.p.Progress; p > 0 && p < 100 && elapsed > 0 {
		left := time.Duration(float64(elapsed) * (100 - p) / p)
		return fmt.Sprintf("it ends by itself in about %s (%.0f %% done after %s)", fmtDuration(left.Round(time.Second)),
			p, fmtDuration(elapsed.Round(time.Second)))
	}
	return fmt.Sprintf("it ends by itself when the rebuild does (running %s; the server reports no progress)",
		fmtDuration(elapsed.Round(time.Second)))
}

// doing is what it does to cause the effect, at the server's rate.
func (r rebuild) doing(w *window, e rebuildEffect) string {
	switch e {
	case effectRedo:
		if v, ok := w.rate("Innodb_os_log_written"); ok && v > 0 {
			return fmt.Sprintf("is writing redo at %s/s (the server's whole rate)", fmtBytes(v))
		}
		return "is writing the whole table to the redo log"
	case effectFlush:
		if v, ok := w.rate("Innodb_buffer_pool_pages_flushed"); ok && v > 0 {
			return fmt.Sprintf("dirties pages the cleaner flushes at %s pages/s", fmtRate(v))
		}
		return "dirties the whole table's pages"
	case effectPool:
		if v, ok := w.rate("Innodb_buffer_pool_reads"); ok && v > 0 {
			return fmt.Sprintf("reads the whole table through the buffer pool (%s pages/s from disk), evicting "+
				"the application's pages", fmtRate(v))
		}
		return "reads the whole table through the buffer pool, evicting the application's pages"
	case effectTmp:
		return "rebuilds the table through a temporary copy"
	}
	return "rebuilds the table"
}

// attributeMaintenance names the rebuild running now in a finding it
// causes: first in the evidence and in Threads, and in the title. The
// severity is the effect's.
func attributeMaintenance(w *window, id string, v verdict) verdict {
	e, ok := attributedRules[id]
	if !ok || e == effectNone || v.finding == nil {
		return v
	}
	rs := rebuildsRunning(w)
	if len(rs) == 0 {
		return v
	}
	f := v.finding
	r := rs[0]
	line := fmt.Sprintf("caused by %s, which %s; %s: %s", r.name(), r.doing(w, e), r.ends(),
		clip(oneLine(r.p.Info), maxSQLChars))
	lines := []string{line}
	for _, o := range rs[1:] {
		lines = append(lines, fmt.Sprintf("also rebuilding: %s; %s", o.name(), o.ends()))
	}
	f.Evidence = append(lines, f.Evidence...)
	f.Title += " — " + r.name() + " is rebuilding the table"
	if !slices.Contains(f.Threads, r.p.ID) {
		f.Threads = append([]int64{r.p.ID}, f.Threads...)
	}
	return v
}
