package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Redo not yet checkpointed approaches the points where InnoDB flushes ahead
// of its writers and then makes them wait (LOG-01). The age is judged against
// those points, not against the log's capacity:
//   - MariaDB 10.5+ (mtr0mtr.cc log_close): up to max_modified_age_async
//     (= max_checkpoint_age − 1/8) nothing happens; past it the page cleaner
//     flushes ahead asynchronously; past max_checkpoint_age
//     (Innodb_checkpoint_max_age) every writer is sent to flush and wait
//     (PAGE_FLUSH_SYNC, log_free_check).
//   - Percona XtraDB prints "Max checkpoint age" (the same hard point).
//   - MySQL, from the capacity (log_calc_max_ages): margin = 0.9 × capacity,
//     async preflush at margin − margin/8, sync preflush at margin − margin/16
//     (≈ 84 % of capacity; PMM measured ~83 % on 8.0).
// Critical means writers stall or are about to: the age at the sync point,
// the stall seen sustained (free-page waits in several intervals, pending
// checkpoint writes) with the age past the async point, or the age past the
// async point still climbing to the sync point within a minute. Past the
// async point and climbing to the sync point within minutes is a warning;
// past it and held there by the flush-ahead, an info. Climbing toward the
// async point is how a lazily flushing server works (MariaDB 10.11 under
// sysbench at 1,000 tx/s: the age climbed 1 MB/s with no page flushed until
// InnoDB had to): nothing.

// flushPoints is one reading of the checkpoint age and its flush points.
type flushPoints struct {
	age, async, sync float64
	capacity         float64 // redo capacity when known (evidence only)
	source           string
}

// IDCheckpointAgeHigh names the findings of checkpoint_age_high: a contract
// (the README's findings table), stable, never reused.
const IDCheckpointAgeHigh = "checkpoint_age_high"

// checkpointAgeHighRule is checkpoint_age_high in the rules table (rule.go).
// LOG-01: the climb is measured over 10 s already; the age hovers around the
// async point under a bulk write, so it clears slowly.
var checkpointAgeHighRule = rule{id: IDCheckpointAgeHigh, check: checkCheckpointAgeHigh, persist: persistFor(3*time.Second, 10*time.Second)}

func checkCheckpointAgeHigh(w *window, c *Config) verdict {
	a, na := readCheckpointAge(w)
	if na != "" {
		return notApplicable(na)
	}
	if a.sync <= 0 {
		return quiet()
	}
	pct := 100 * a.age / a.sync
	if pct < c.CheckpointAgeWarn {
		return quiet()
	}
	// A high age alone is normal at rest: MariaDB 10.5+ and MySQL 8 flush
	// lazily while little redo is written, and under a steady load adaptive
	// flushing holds the age level. It matters when the age climbs toward
	// the flush points fast enough to reach them soon (never faster than the
	// redo is written), or the server already stalls on them.
	redo, redoKnown := redoWriteRate(w)
	climb, climbKnown := ageClimb(w, a.async)
	rate := 0.0
	if redoKnown && climbKnown && climb.steady && climb.perSec > 0 {
		rate = min(climb.perSec, redo)
	}
	untilPoint := func(point float64) time.Duration {
		if a.age >= point {
			return 0
		}
		if rate <= 0 {
			return -1
		}
		return time.Duration((point - a.age) / rate * float64(time.Second))
	}
	toSync := untilPoint(a.sync)
	pastAsync := a.age >= a.async
	stall := ""
	if pastAsync {
		stall = syncFlushSigns(w, c)
	}
	var sev snapshot.Severity
	var title string
	switch {
	case a.age >= a.sync:
		sev, title = snapshot.Critical, fmt.Sprintf("checkpoint age at the sync flush point (%.0f %%): writers wait for flushing", pct)
	case stall != "":
		sev, title = snapshot.Critical, fmt.Sprintf("checkpoint age %.0f %% of the sync flush point; writers stall on flushing", pct)
	case pastAsync && toSync >= 0 && toSync < c.CheckpointHeadroomCrit:
		sev, title = snapshot.Critical, fmt.Sprintf("checkpoint age %.0f %% of the sync flush point, ~%s from it at %s/s of redo",
			pct, fmtDuration(toSync), fmtBytes(rate))
	case pastAsync && toSync >= 0 && toSync < c.CheckpointHeadroomWarn:
		sev, title = snapshot.Warning, fmt.Sprintf("checkpoint age %.0f %% of the sync flush point and climbing "+
			"while InnoDB flushes ahead: ~%s from it at %s/s of redo", pct, fmtDuration(toSync), fmtBytes(rate))
	case pastAsync:
		sev, title = snapshot.Info, fmt.Sprintf("checkpoint age %.0f %% of the sync flush point: InnoDB flushes "+
			"ahead of its writers and holds it", pct)
	default:
		// Climbing toward the async point is how a lazily flushing server
		// works (MariaDB 10.5+ flushes little until it must): not a finding.
		return quiet()
	}
	ev := []string{fmt.Sprintf("checkpoint age %s; InnoDB flushes ahead from %s and makes writers wait from %s (%s)",
		fmtBytes(a.age), fmtBytes(a.async), fmtBytes(a.sync), a.source)}
	if a.capacity > 0 {
		ev = append(ev, fmt.Sprintf("redo log capacity %s (age %.0f %% of it)", fmtBytes(a.capacity), 100*a.age/a.capacity))
	}
	if climbKnown && redoKnown {
		line := fmt.Sprintf("the age moved %s/s over the last %s with redo written at %s/s", fmtSignedBytes(climb.perSec),
			fmtDuration(climb.over), fmtBytes(redo))
		if toSync > 0 {
			line += fmt.Sprintf(": the sync flush point is ~%s away at this rate", fmtDuration(toSync))
		}
		ev = append(ev, line)
	}
	if stall != "" {
		ev = append(ev, "already flushing synchronously: "+stall)
	} else if r, ok := w.rate("Innodb_buffer_pool_wait_free"); ok && r > 0 {
		ev = append(ev, fmt.Sprintf("Innodb_buffer_pool_wait_free %s/s this interval (one interval is not a stall)", fmtRate(r)))
	}
	ev = append(ev, w.counterLines("Innodb_os_log_written", "Innodb_buffer_pool_pages_flushed")...)
	if d, ok := w.snap.StatusInt("Innodb_buffer_pool_pages_dirty"); ok {
		ev = append(ev, fmt.Sprintf("dirty pages %s", fmtCount(d)))
	}
	ev = appendNonEmpty(ev, busiestDisk(w))
	ev = appendNonEmpty(ev, routineWriters(w)) // routine work writing the redo, named (routine.go)
	return raise(sev, title, ev,
		"Give the redo log more room (innodb_log_file_size / innodb_redo_log_capacity) and check that "+
			"flushing keeps up: innodb_io_capacity and the disk's write latency. A bulk write (a schema change's "+
			"row copy, a batch load) that ends by itself can also be throttled instead.", nil)
}

// fmtSignedBytes is fmtBytes with a sign for a fall.
func fmtSignedBytes(b float64) string {
	if b < 0 {
		return "-" + fmtBytes(-b)
	}
	return "+" + fmtBytes(b)
}

// redoWriteRate is redo bytes written per second this interval.
func redoWriteRate(w *window) (float64, bool) {
	for _, name := range []string{"Innodb_os_log_written", "Innodb_lsn_current"} {
		if r, ok := w.rate(name); ok {
			return r, true
		}
	}
	p := w.prev()
	if p == nil || p.Snapshot.InnoDB == nil || w.snap.InnoDB == nil {
		return 0, false
	}
	a, b := p.Snapshot.InnoDB, w.snap.InnoDB
	secs := b.Time.Sub(a.Time).Seconds()
	if !a.Log.Present || !b.Log.Present || secs <= 0 || b.Log.SequenceNumber < a.Log.SequenceNumber {
		return 0, false
	}
	return float64(b.Log.SequenceNumber-a.Log.SequenceNumber) / secs, true
}

// climbWindow is how many recent frames the age's climb is measured over:
// one interval is noise (the page cleaner works in bursts).
const climbWindow = 10

// ageChange is how the checkpoint age moved over the last frames.
type ageChange struct {
	perSec float64
	over   time.Duration
	steady bool // rose in at least two of every three intervals
}

// ageClimb is the checkpoint age's rise per second over the recent frames
// whose age is at or past floor (the async flush point): the least-squares
// slope of the latest unbroken run of them, at least two intervals long.
// The climb toward the async point says nothing of the climb past it, where
// InnoDB starts flushing ahead and the age usually levels off (sysbench at
// 1,400 tx/s here: +2 MB/s up to the async point, then 181-183 MB for a
// minute; an endpoint difference over 10 s called that "14 s from the sync
// point", critical). A level age wobbles by a page cleaner's batch (+1,
// -1 MB): the climb counts only when it is steady, rising in at least two of
// every three intervals.
func ageClimb(w *window, floor float64) (ageChange, bool) {
	var xs, ys []float64
	recent := w.recent(climbWindow)
	now := w.snap.Time
	for i := len(recent) - 1; i >= 0; i-- {
		age, ok := checkpointAgeOf(recent[i].Snapshot)
		if !ok || age < floor {
			break
		}
		xs = append(xs, recent[i].Snapshot.Time.Sub(now).Seconds())
		ys = append(ys, age)
	}
	if len(xs) < 3 || xs[0]-xs[len(xs)-1] <= 0 {
		return ageChange{}, false
	}
	over := time.Duration((xs[0] - xs[len(xs)-1]) * float64(time.Second))
	rises := 0
	for i := 1; i < len(ys); i++ {
		if ys[i-1] > ys[i] { // ys runs from now back in time
			rises++
		}
	}
	return ageChange{perSec: slope(xs, ys), over: over, steady: 3*rises >= 2*(len(ys)-1)}, true
}

// checkpointAgeOf reads one snapshot's checkpoint age in bytes.
func checkpointAgeOf(s *snapshot.Snapshot) (float64, bool) {
	if v, ok := s.StatusFloat("Innodb_checkpoint_age"); ok {
		return v, true
	}
	if s.InnoDB != nil && s.InnoDB.Log.Present {
		return float64(s.InnoDB.Log.CheckpointAge), true
	}
	return 0, false
}

// syncFlushSigns says how the server shows it is already flushing
// synchronously: threads waited for a free page in at least
// CheckpointStallIntervals of the last SightingWindow intervals (one tick is
// a burst the page cleaner absorbs), or checkpoint writes pending.
func syncFlushSigns(w *window, c *Config) string {
	var signs []string
	rises := 0
	for _, f := range w.recent(c.SightingWindow) {
		if f.Rates != nil {
			if r, ok := f.Rates.Rate("Innodb_buffer_pool_wait_free"); ok && r > 0 {
				rises++
			}
		}
	}
	if rises >= max(c.CheckpointStallIntervals, 1) {
		r, _ := w.rate("Innodb_buffer_pool_wait_free")
		signs = append(signs, fmt.Sprintf("Innodb_buffer_pool_wait_free rose in %d of the last %d intervals (%s/s now)",
			rises, len(w.recent(c.SightingWindow)), fmtRate(r)))
	}
	if in := w.snap.InnoDB; in != nil && in.Log.Present && in.Log.PendingCheckpointWrites > 0 {
		signs = append(signs, fmt.Sprintf("%d pending checkpoint writes", in.Log.PendingCheckpointWrites))
	}
	return strings.Join(signs, ", ")
}

// readCheckpointAge prefers the server's own status (MariaDB/Percona), then
// the parsed LOG section: XtraDB's "Max checkpoint age", else the MySQL
// preflush points derived from the redo capacity.
func readCheckpointAge(w *window) (flushPoints, string) {
	capacity := redoCapacity(w)
	if age, ok := w.snap.StatusFloat("Innodb_checkpoint_age"); ok {
		if maxAge, ok := w.snap.StatusFloat("Innodb_checkpoint_max_age"); ok {
			return flushPoints{age: age, async: maxAge - maxAge/8, sync: maxAge, capacity: capacity,
				source: "Innodb_checkpoint_max_age; flushing ahead from 7/8 of it"}, ""
		}
	}
	if r := innodbNA(w); r != "" {
		return flushPoints{}, r
	}
	in := w.snap.InnoDB
	if in == nil || !in.Log.Present {
		return flushPoints{}, ""
	}
	if in.Log.CapacityBytes > 0 {
		capacity = float64(in.Log.CapacityBytes)
	}
	age := float64(in.Log.CheckpointAge)
	if m := float64(in.Log.MaxCheckpointAge); m > 0 {
		return flushPoints{age: age, async: m - m/8, sync: m, capacity: capacity,
			source: "XtraDB's Max checkpoint age; flushing ahead from 7/8 of it"}, ""
	}
	if capacity <= 0 {
		return flushPoints{}, "redo log capacity unknown (no innodb_redo_log_capacity or innodb_log_file_size)"
	}
	margin := 0.9 * capacity
	return flushPoints{age: age, async: margin - margin/8, sync: margin - margin/16, capacity: capacity,
		source: "LSN - last checkpoint; InnoDB's preflush points at 79 % and 84 % of the redo capacity"}, ""
}

// redoCapacity is innodb_redo_log_capacity, else log file size × files.
func redoCapacity(w *window) float64 {
	if v, ok := w.snap.VarFloat("innodb_redo_log_capacity"); ok && v > 0 {
		return v
	}
	size, ok := w.snap.VarFloat("innodb_log_file_size")
	if !ok {
		return 0
	}
	files, ok := w.snap.VarFloat("innodb_log_files_in_group")
	if !ok || files <= 0 {
		files = 1 // MariaDB 10.5+ has a single redo file
	}
	return size * files
}
