package analyzers

import (
	"fmt"
	"strconv"

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
	own := ownTmpTables(w, c)
	disk = max(disk-own.disk, 0)
	all = max(all-own.all, 0)
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
		"monitor's own %s/s, %s/s of them on disk, %s)", share, fmtRate(own.all), fmtRate(own.disk), own.how)}
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

// ownShare is the monitor's own temporary tables per second this interval.
type ownShare struct {
	all, disk float64
	how       string
}

// ownTmpTables measures the monitor's share from its own session's counters
// when the source has them (SHOW SESSION STATUS of the sampling connection:
// on a server with a small tmp_table_size every SHOW GLOBAL STATUS may make
// an on-disk table); older recordings fall back to the configured footprint
// plus the information_schema reads the previous tick counted.
func ownTmpTables(w *window, c *Config) ownShare {
	iv := w.rates.Interval
	if p := w.prev(); p != nil && iv > 0 {
		all, ok1 := selfDelta(p.Snapshot, w.snap, tmpTables)
		disk, ok2 := selfDelta(p.Snapshot, w.snap, tmpDisk)
		if ok1 && ok2 {
			return ownShare{all: all / iv, disk: disk / iv, how: "measured on its own session"}
		}
	}
	disk := c.OwnTmpDiskTablesPerSample
	if p := w.prev(); p != nil {
		disk += float64(p.Snapshot.SelfTmpDiskTables)
	}
	if iv <= 0 {
		return ownShare{how: "assumed"}
	}
	return ownShare{all: c.OwnTmpTablesPerSample / iv, disk: disk / iv, how: "assumed per sample"}
}

// selfDelta is the change of one of the monitor's own session counters; not
// ok when either sample lacks it or the session was reconnected (it fell).
func selfDelta(prev, cur *snapshot.Snapshot, name string) (float64, bool) {
	a, ok1 := prev.SelfStatus[name]
	b, ok2 := cur.SelfStatus[name]
	if !ok1 || !ok2 {
		return 0, false
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || y < x {
		return 0, false
	}
	return y - x, true
}
