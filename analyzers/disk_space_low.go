package analyzers

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Disk space: a full datadir, tmpdir, binlog or redo filesystem stops a
// server cold. MariaDB and MySQL then wait for space ("Disk is full writing
// … Waiting for someone to free space", error 28 / errno ENOSPC), holding
// their locks, or fail the statement. Judged on the free space of each
// filesystem holding the server's files (read with statfs when the server is
// on this machine), and everywhere on threads the processlist shows waiting
// for space.

// DiskSpaceConfig holds disk_space_low's thresholds. Embedded in Config.
type DiskSpaceConfig struct {
	// DiskAvailWarn / DiskAvailCrit: % of the filesystem the server may
	// still write (f_bavail, root's reserve excluded). Warning below 10 %
	// (APA HostOutOfDiskSpace: node_filesystem_avail_bytes < 10 %);
	// critical below 3 % (node_exporter's node-mixin
	// NodeFilesystemAlmostOutOfSpace: critical < 3 %). Trap: f_bfree, which
	// counts root's reserved 5 % that mysqld (not root) cannot use.
	DiskAvailWarn float64
	DiskAvailCrit float64
	// DiskFullWarnIn / DiskFullCritIn: time to full at the rate the free
	// space fell over the last DiskRateWindow, at most. Warning within 4 h
	// (node-mixin NodeFilesystemSpaceFillingUp's critical horizon; its 24 h
	// warning extrapolates 6 h of history, which the monitor's window does
	// not keep); critical within 10 minutes (UNKNOWN: the time a DBA needs
	// to purge binlogs or kill the writer). Trap: a sort or ALTER's
	// temporary file that is written and removed in seconds
	// (DiskRateMinSpan), and a filesystem whose free space goes up and down
	// (only a fall over the whole span counts).
	DiskFullWarnIn time.Duration
	DiskFullCritIn time.Duration
	// DiskTrendBelow: the time to full is judged only on a filesystem with
	// less than this % free (node-mixin NodeFilesystemSpaceFillingUp: its
	// critical needs < 20 % free as well as the forecast). Trap: a burst of
	// writes on a roomy disk (a test suite, a backup written then moved, a
	// bulk load's temporary files) extrapolated from two minutes to "full in
	// 28 minutes" at 29 % free: seen on this project's shared test machine.
	DiskTrendBelow float64
	// DiskRateWindow / DiskRateMinSpan: the free space is compared with the
	// oldest reading within DiskRateWindow, and only once DiskRateMinSpan of
	// readings exist (UNKNOWN; design). Trap: a rate over one 5-s read.
	DiskRateWindow  time.Duration
	DiskRateMinSpan time.Duration
}

func (c *DiskSpaceConfig) defaults() {
	*c = DiskSpaceConfig{DiskAvailWarn: 10, DiskAvailCrit: 3, DiskFullWarnIn: 4 * time.Hour,
		DiskFullCritIn: 10 * time.Minute, DiskTrendBelow: 20, DiskRateWindow: 2 * time.Minute, DiskRateMinSpan: 30 * time.Second}
}

// diskFullStates are processlist states of threads stopped by a full disk
// (MariaDB's and MySQL's stage names).
var diskFullStates = []string{"Waiting for someone to free space", "Waiting for disk space", "Disk is full"}

// IDDiskSpaceLow names the findings of disk_space_low: a contract (the
// README's findings table), stable, never reused.
const IDDiskSpaceLow = "disk_space_low"

// diskSpaceLowRule is disk_space_low in the rules table (rule.go). One statfs
// proves the level, and the fall is measured over its own span; clear only
// after two reads (5 s apart) say it is over.
var diskSpaceLowRule = rule{id: IDDiskSpaceLow, check: checkDiskSpaceLow,
	persist: persistFor(time.Second, 10*time.Second)}

func checkDiskSpaceLow(w *window, c *Config) verdict {
	waiting := diskWaiters(w.processes())
	fsList := w.snap.Filesystems
	if len(fsList) == 0 && len(waiting) == 0 {
		if r := w.unavailable(snapshot.CollectorDiskSpace); r != "" && len(w.snap.Processlist) == 0 {
			return notApplicable(r)
		}
		return quiet()
	}
	sev := snapshot.Severity(-1)
	var ev []string
	var worst string
	for _, f := range fsList {
		s, line, title := judgeFilesystem(w, c, f)
		ev = append(ev, line)
		if s > sev {
			sev, worst = s, title
		}
	}
	if len(waiting) > 0 {
		sev = snapshot.Critical
		worst = fmt.Sprintf("%d threads wait for disk space", len(waiting))
		if len(waiting) == 1 {
			worst = "1 thread waits for disk space"
		}
		if len(fsList) == 0 {
			ev = append(ev, "the filesystems cannot be read from here (the server is on another machine): "+
				"its error log says which file (\"Disk is full writing …\", errno 28)")
		}
		ev = append(ev, threadLines(waiting)...)
	}
	if sev < snapshot.Warning {
		return quiet()
	}
	return raise(sev, worst, ev,
		"Free space now: PURGE BINARY LOGS BEFORE … (after checking replicas have read them; then set "+
			"binlog_expire_logs_seconds / expire_logs_days), remove old backups or dumps on that filesystem, or "+
			"kill the statement writing the large temporary file (tmpdir); then grow the filesystem or move "+
			"tmpdir/binlogs to another one. A server waiting for space resumes by itself once space is freed "+
			"(it retries every minute); do not delete InnoDB or binlog files by hand.", ids(waiting, maxThreadIDs))
}

// judgeFilesystem returns the severity of one filesystem (-1 when fine), its
// evidence line and the title it would give.
func judgeFilesystem(w *window, c *Config, f snapshot.Filesystem) (snapshot.Severity, string, string) {
	pct := f.AvailPct()
	where := fmt.Sprintf("%s (%s)", f.Path, strings.Join(f.Roles, ", "))
	line := fmt.Sprintf("%s: %s free of %s (%.1f %%)", where, fmtBytes(float64(f.AvailBytes)), fmtBytes(float64(f.SizeBytes)), pct)
	if f.Inodes > 0 {
		line += fmt.Sprintf(", %.0f %% of inodes free", 100*float64(f.InodesFree)/float64(f.Inodes))
	}
	sev := snapshot.Severity(-1)
	title := ""
	switch {
	case pct < c.DiskAvailCrit:
		sev, title = snapshot.Critical, fmt.Sprintf("disk almost full: %s has %.1f %% free", where, pct)
	case pct < c.DiskAvailWarn:
		sev, title = snapshot.Warning, fmt.Sprintf("disk space low: %s has %.1f %% free", where, pct)
	}
	if rate, span, ok := availFall(w, c, f.Path); ok {
		if rate <= 0 {
			line += fmt.Sprintf("; not falling over %s", fmtDuration(span))
		} else {
			line += fmt.Sprintf("; falling %s/s over %s", fmtBytes(rate), fmtDuration(span))
			ttf := time.Duration(float64(f.AvailBytes) / rate * float64(time.Second))
			line += ", full in about " + fmtDuration(ttf)
			ts := snapshot.Severity(-1)
			switch {
			case pct >= c.DiskTrendBelow:
				// roomy: the fall is shown, not judged
			case ttf < c.DiskFullCritIn:
				ts = snapshot.Critical
			case ttf < c.DiskFullWarnIn:
				ts = snapshot.Warning
			}
			if ts > sev {
				sev, title = ts, fmt.Sprintf("%s fills up in about %s (%.1f %% free)", where, fmtDuration(ttf), pct)
			}
		}
	}
	return sev, line, title
}

// availFall is how fast the available bytes of the filesystem at path fell
// per second, against the oldest reading within DiskRateWindow.
func availFall(w *window, c *Config, path string) (rate float64, span time.Duration, ok bool) {
	cur, found := fsAt(w.snap, path)
	if !found {
		return 0, 0, false
	}
	var old *snapshot.Frame
	var oldFS snapshot.Filesystem
	for i := len(w.frames) - 1; i >= 0; i-- {
		f := w.frames[i]
		if f == nil || f.Snapshot == nil || w.snap.Time.Sub(f.Snapshot.Time) > c.DiskRateWindow {
			break
		}
		if x, ok := fsAt(f.Snapshot, path); ok && x.SizeBytes == cur.SizeBytes {
			old, oldFS = f, x
		}
	}
	if old == nil {
		return 0, 0, false
	}
	span = w.snap.Time.Sub(old.Snapshot.Time)
	if span < c.DiskRateMinSpan {
		return 0, 0, false
	}
	rate = (float64(oldFS.AvailBytes) - float64(cur.AvailBytes)) / span.Seconds()
	return math.Round(rate), span, true
}

func fsAt(s *snapshot.Snapshot, path string) (snapshot.Filesystem, bool) {
	for _, f := range s.Filesystems {
		if f.Path == path {
			return f, true
		}
	}
	return snapshot.Filesystem{}, false
}

// diskWaiters are the threads stopped by a full disk.
func diskWaiters(v *procView) []*snapshot.Process {
	var out []*snapshot.Process
	for i := range v.all {
		p := &v.all[i]
		for _, s := range diskFullStates {
			if strings.HasPrefix(p.State, s) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}
