package analyzers

import (
	"fmt"
	"strconv"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Internal temporary tables that outgrow memory go to disk (TMP-01). The
// per-second alarm is a real rate of on-disk temporary tables made by
// application statements (ZBX > 10/s); the share of them on disk (PMM-C > 5 %,
// MT > 25 %) is a configuration check read since start-up, which only makes
// a high rate critical when most of it goes to disk. Routine work's on-disk
// tables (a dump's information_schema reads, which MariaDB always
// materialises on disk) are put on it, at info, where evidence shows them
// (tmp_disk_routine.go); where nothing does, its share is said to be
// unknown and the rate is never critical.
const (
	tmpDisk   = "Created_tmp_disk_tables"
	tmpTables = "Created_tmp_tables"
)

// tmpStates are processlist states of statements building or spilling temp tables.
var tmpStates = []string{
	"Copying to tmp table on disk", "converting HEAP to ondisk", "converting HEAP to MyISAM",
	"converting HEAP to Aria", "Copying to tmp table", "Creating tmp table",
}

// tmpDiskStates are the states of statements whose temporary table is on disk.
var tmpDiskStates = tmpStates[:4]

// IDTmpDiskTables names the findings of tmp_disk_tables: a contract (the
// README's findings table), stable, never reused.
const IDTmpDiskTables = "tmp_disk_tables"

// tmpDiskTablesRule is tmp_disk_tables in the rules table (rule.go). A rate
// of spills is a load pattern, not an outage: 30 s of signal to raise, 10 s
// without to clear. ZBX holds its on-disk temporary table rate for 5 m (at a
// 1-m poll); a dashboard watched during an incident uses 30 s, which no
// single report query's spill or dump's per-table information_schema burst
// (1-2 s) holds, while an application's steady rate does. Trap: a one-off
// statement's spill at 1-s sampling (the default's 3 frames).
var tmpDiskTablesRule = rule{id: IDTmpDiskTables, check: checkTmpDiskTables, persist: persistFor(30*time.Second, 10*time.Second), held: true}

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
		return tmpConfigCheck(w, c)
	}
	own := ownTmpTables(w, c)
	disk = max(disk-own.disk, 0)
	all = max(all-own.all, 0)
	if disk < c.TmpDiskMinPerSec || all <= 0 {
		return tmpConfigCheck(w, c)
	}
	split := splitTmpDisk(w, disk)
	app := max(disk-split.routine, 0)
	// Created_tmp_tables counts disk tables too, so the share is at most 100 %.
	share := 100 * disk / max(all, disk)
	appShare := 100 * app / max(all-split.routine, app, 1e-9)
	if app <= c.TmpDiskRateWarn {
		if split.routine >= c.TmpDiskMinPerSec && disk > c.TmpDiskRateWarn {
			return routineTmpVerdict(w, own, split, disk, share)
		}
		return tmpConfigCheck(w, c)
	}
	if split.likely {
		return unknownShareVerdict(w, own, split, disk, share)
	}
	// With routine work's share unknown, the application's share is not
	// known either: a warning, never critical on a guess.
	sev := snapshot.Warning
	if appShare > c.TmpDiskShareCrit && !split.unknown {
		sev = snapshot.Critical
	}
	ev := []string{fmt.Sprintf("%s temporary tables/s on disk, %.0f %% of all, this interval (not counting this "+
		"monitor's own %s/s, %s/s of them on disk, %s)", fmtRate(disk), share, fmtRate(own.all), fmtRate(own.disk), own.how)}
	if split.routine > 0 {
		ev = append(ev, fmt.Sprintf("%s/s of them are routine work's, %s: %s; %s/s (%.0f %%) are the "+
			"application's", fmtRate(split.routine), split.how, split.who, fmtRate(app), appShare))
	}
	title := fmt.Sprintf("%s temporary tables/s on disk (%.0f %% of all)", fmtRate(app), appShare)
	if split.unknown {
		ev = append(ev, fmt.Sprintf("routine work ran in the window (%s): its share of them is unknown (%s), "+
			"so this is not raised to critical", split.who, split.how))
		title = fmt.Sprintf("%s temporary tables/s on disk (%.0f %% of all; routine work's share unknown)", fmtRate(app), appShare)
	}
	ev = append(ev, w.counterLines(tmpDisk, tmpTables, "Created_tmp_files")...)
	ev = appendNonEmpty(ev, tmpSizes(w))
	spilling := appProcesses(w, w.processes().inStates(tmpStates...))
	ev = append(ev, threadLines(spilling)...)
	ev = append(ev, digestCauseLines(w, c, "disk temporary tables", appTmpDisk(w))...)
	return raise(sev, title, ev, tmpAdvice(w, spilling), ids(spilling, maxThreadIDs))
}

// tmpAdvice follows the statement that makes the most on-disk temporary
// tables (digests), else the longest one seen spilling.
func tmpAdvice(w *window, spilling []*snapshot.Process) string {
	const tail = " select fewer columns (BLOB/TEXT force disk tables), and keep tmp_table_size = " +
		"max_heap_table_size large enough for its usual result."
	if top := topDigest(w, appTmpDisk(w)); top != nil {
		return fmt.Sprintf("Index the GROUP BY/ORDER BY columns of %s (%s disk temporary tables/s),",
			truncateText(top.Fingerprint, 160), fmtRate(top.TmpDiskTablesPerS)) + tail
	}
	for _, p := range spilling {
		if p.Info != "" {
			return fmt.Sprintf("Index the GROUP BY/ORDER BY columns of %s (thread %d),", statement(p.Info), p.ID) + tail
		}
	}
	return "Index the GROUP BY/ORDER BY columns of the statements that make them (performance_schema's " +
		"SUM_CREATED_TMP_DISK_TABLES names them when it is on)," + tail
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
