package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Redo not yet checkpointed approaches the point where InnoDB must flush
// synchronously and stall writers (LOG-01). Measured against redo capacity,
// or on MariaDB against Innodb_checkpoint_max_age.

// checkpointAge is one reading of the checkpoint age.
type checkpointAge struct {
	ageBytes, capBytes float64
	source             string
}

func checkCheckpointAgeHigh(w *window, c *Config) verdict {
	a, na := readCheckpointAge(w)
	if na != "" {
		return notApplicable(na)
	}
	if a.capBytes <= 0 {
		return quiet()
	}
	pct := 100 * a.ageBytes / a.capBytes
	if pct < c.CheckpointAgeWarn {
		return quiet()
	}
	// A high age alone is normal at rest: MariaDB 10.5+ and MySQL 8 flush
	// lazily while little redo is written, and under a steady load adaptive
	// flushing holds the age level. It matters when the age climbs toward
	// the sync flush point fast enough to reach it soon (never faster than
	// the redo is written), or the server already stalls on it.
	redo, redoKnown := redoWriteRate(w)
	stall := syncFlushSigns(w)
	climb, climbKnown := ageClimb(w)
	headroom := time.Duration(-1)
	if redoKnown && climbKnown && climb.perSec > 0 {
		headroom = time.Duration(max(a.capBytes-a.ageBytes, 0) / min(climb.perSec, redo) * float64(time.Second))
	}
	soon := headroom >= 0 && headroom < c.CheckpointHeadroomWarn
	if stall == "" && !soon {
		return quiet()
	}
	sev := snapshot.Warning
	if stall != "" || headroom < c.CheckpointHeadroomCrit {
		sev = snapshot.Critical
	}
	ev := []string{fmt.Sprintf("checkpoint age %s of %s (%.0f %%, %s)", fmtBytes(a.ageBytes), fmtBytes(a.capBytes),
		pct, a.source)}
	title := fmt.Sprintf("checkpoint age at %.0f %% of the redo log", pct)
	if headroom >= 0 {
		ev = append(ev, fmt.Sprintf("the age grew %s/s over the last %s with redo written at %s/s: the sync "+
			"flush point is ~%s away at this rate", fmtBytes(climb.perSec), fmtDuration(climb.over), fmtBytes(redo),
			fmtDuration(headroom)))
		title += fmt.Sprintf(", ~%s of headroom at %s/s of redo", fmtDuration(headroom), fmtBytes(redo))
	}
	if stall != "" {
		ev = append(ev, "already flushing synchronously: "+stall)
		title += "; writers stall on flushing"
	}
	ev = append(ev, w.counterLines("Innodb_os_log_written", "Innodb_buffer_pool_pages_flushed")...)
	if d, ok := w.snap.StatusInt("Innodb_buffer_pool_pages_dirty"); ok {
		ev = append(ev, fmt.Sprintf("dirty pages %s", fmtCount(d)))
	}
	ev = appendNonEmpty(ev, busiestDisk(w))
	return raise(sev, title, ev,
		"Give the redo log more room (innodb_log_file_size / innodb_redo_log_capacity) and check that "+
			"flushing keeps up: innodb_io_capacity and the disk's write latency.", nil)
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
}

// ageClimb is the checkpoint age's rise per second from the oldest of the
// last climbWindow frames that carries it to now.
func ageClimb(w *window) (ageChange, bool) {
	now, ok := checkpointAgeOf(w.snap)
	if !ok {
		return ageChange{}, false
	}
	for _, f := range w.recent(climbWindow) {
		then, ok := checkpointAgeOf(f.Snapshot)
		over := w.snap.Time.Sub(f.Snapshot.Time)
		if ok && over > 0 {
			return ageChange{perSec: (now - then) / over.Seconds(), over: over}, true
		}
	}
	return ageChange{}, false
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
// synchronously: threads waiting for a free page, or checkpoint writes pending.
func syncFlushSigns(w *window) string {
	var signs []string
	if r, ok := w.rate("Innodb_buffer_pool_wait_free"); ok && r > 0 {
		signs = append(signs, fmt.Sprintf("Innodb_buffer_pool_wait_free %s/s", fmtRate(r)))
	}
	if in := w.snap.InnoDB; in != nil && in.Log.Present && in.Log.PendingCheckpointWrites > 0 {
		signs = append(signs, fmt.Sprintf("%d pending checkpoint writes", in.Log.PendingCheckpointWrites))
	}
	return strings.Join(signs, ", ")
}

// readCheckpointAge prefers the server's own status (MariaDB/Percona), then
// the parsed LOG section with redo capacity from variables.
func readCheckpointAge(w *window) (checkpointAge, string) {
	if age, ok := w.snap.StatusFloat("Innodb_checkpoint_age"); ok {
		if maxAge, ok := w.snap.StatusFloat("Innodb_checkpoint_max_age"); ok {
			return checkpointAge{age, maxAge, "Innodb_checkpoint_age / Innodb_checkpoint_max_age"}, ""
		}
	}
	if r := innodbNA(w); r != "" {
		return checkpointAge{}, r
	}
	in := w.snap.InnoDB
	if in == nil || !in.Log.Present {
		return checkpointAge{}, ""
	}
	capacity := float64(in.Log.CapacityBytes)
	if capacity <= 0 {
		capacity = redoCapacity(w)
	}
	if capacity <= 0 {
		return checkpointAge{}, "redo log capacity unknown (no innodb_redo_log_capacity or innodb_log_file_size)"
	}
	return checkpointAge{float64(in.Log.CheckpointAge), capacity, "LSN - last checkpoint vs redo capacity"}, ""
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
