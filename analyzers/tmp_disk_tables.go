package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Internal temporary tables that outgrow memory go to disk (TMP-01). Judged by
// the share of temporary tables created on disk this interval (PMM-C > 5 %,
// MT > 25 %) and their rate (ZBX > 10/s).
const (
	tmpDisk   = "Created_tmp_disk_tables"
	tmpTables = "Created_tmp_tables"
)

// tmpStates are processlist states of statements building or spilling temp tables.
var tmpStates = []string{
	"Copying to tmp table on disk", "converting HEAP to ondisk", "converting HEAP to MyISAM",
	"converting HEAP to Aria", "Copying to tmp table", "Creating tmp table",
}

func checkTmpDiskTables(w *window, c *Config) verdict {
	if r := w.statusNA(tmpDisk, tmpTables); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	disk, ok1 := w.rate(tmpDisk)
	all, ok2 := w.rate(tmpTables)
	if !ok1 || !ok2 {
		return quiet()
	}
	// Take out what sampling itself created this interval: the fixed cost of
	// each sample, and the information_schema reads the previous tick made
	// after it had read status.
	own := c.OwnTmpDiskTablesPerSample
	if p := w.prev(); p != nil {
		own += float64(p.Snapshot.SelfTmpDiskTables)
	}
	disk = max(disk-own/w.rates.Interval, 0)
	all = max(all-c.OwnTmpTablesPerSample/w.rates.Interval, 0)
	if disk < c.TmpDiskMinPerSec || all <= 0 {
		return quiet()
	}
	// Created_tmp_tables counts disk tables too, so the share is at most 100 %.
	share := 100 * disk / max(all, disk)
	if share <= c.TmpDiskShareWarn && disk <= c.TmpDiskRateWarn {
		return quiet()
	}
	sev := snapshot.Warning
	if share > c.TmpDiskShareCrit && disk > c.TmpDiskRateWarn {
		sev = snapshot.Critical
	}
	ev := []string{fmt.Sprintf("%.0f %% of temporary tables went to disk this interval (not counting this "+
		"monitor's own %.0f per sample, %.0f of them on disk)", share, c.OwnTmpTablesPerSample, c.OwnTmpDiskTablesPerSample)}
	ev = append(ev, w.counterLines(tmpDisk, tmpTables, "Created_tmp_files")...)
	ev = appendNonEmpty(ev, tmpSizes(w))
	spilling := w.processes().inStates(tmpStates...)
	ev = append(ev, threadLines(spilling)...)
	ev = append(ev, digestCauseLines(w, c, "disk temporary tables", func(r *snapshot.StatementRate) float64 { return r.TmpDiskTablesPerS })...)
	return raise(sev, fmt.Sprintf("%s temporary tables/s on disk (%.0f %% of all)", fmtRate(disk), share), ev,
		"Index the GROUP BY/ORDER BY columns of the statements listed, select fewer columns (BLOB/TEXT force "+
			"disk tables), and keep tmp_table_size = max_heap_table_size large enough for the usual result.",
		ids(spilling, maxThreadIDs))
}

func tmpSizes(w *window) string {
	t, ok1 := w.snap.VarFloat("tmp_table_size")
	h, ok2 := w.snap.VarFloat("max_heap_table_size")
	if !ok1 || !ok2 {
		return ""
	}
	return fmt.Sprintf("tmp_table_size=%s, max_heap_table_size=%s", fmtBytes(t), fmtBytes(h))
}
