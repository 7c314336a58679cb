package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The buffer pool against memory and data (BP-03): context for
// buffer_pool_miss, never a finding of its own. On a server that runs
// nothing else the pool gets 70–80 % of RAM (the InnoDB tuning guide's tuning guide);
// MySQLTuner flags a pool smaller than the InnoDB data.

// bpSizing is the evidence line: the pool as a share of the host's RAM when
// the server is local, and against InnoDB's tablespace files when read.
func bpSizing(w *window) string {
	pool, ok := w.snap.VarFloat("innodb_buffer_pool_size")
	if !ok || pool <= 0 {
		return ""
	}
	line := "innodb_buffer_pool_size " + fmtBytes(pool)
	if ram := localRAM(w.snap); ram > 0 {
		line += fmt.Sprintf(" is %s %% of the host's %s RAM (%.0f–%.0f %% on a server that runs nothing else)",
			fmtShare(100*pool/ram), fmtBytes(ram), w.cfg.BufferPoolRAMShareLow, w.cfg.BufferPoolRAMShareHigh)
	}
	if data := float64(w.snap.InnoDBFileBytes); data > 0 {
		line += fmt.Sprintf("; InnoDB tablespace files %s, the pool holds %s %% of them", fmtBytes(data),
			fmtShare(min(100*pool/data, 100)))
	}
	return line
}

// localRAM is the host's memory in bytes when the server runs on it, else 0.
func localRAM(s *snapshot.Snapshot) float64 {
	if s.Host == nil || s.Host.Remote {
		return 0
	}
	return float64(s.Host.MemTotal)
}

// bpTarget is the size to raise the pool to, and why, or "" when no number
// can be given: the low end of the RAM share on a local server, capped at
// the data it would hold; the data size when only that is known.
func bpTarget(w *window) string {
	pool, ok := w.snap.VarFloat("innodb_buffer_pool_size")
	if !ok || pool <= 0 {
		return ""
	}
	ram, data := localRAM(w.snap), float64(w.snap.InnoDBFileBytes)
	switch {
	case ram > 0:
		target := roundSize(ram*w.cfg.BufferPoolRAMShareLow/100, false)
		why := fmt.Sprintf("%.0f %% of the host's %s RAM", w.cfg.BufferPoolRAMShareLow, fmtBytes(ram))
		if data > 0 && data*1.1 < ram*w.cfg.BufferPoolRAMShareLow/100 {
			target, why = roundSize(data*1.1, true), fmt.Sprintf("the InnoDB files' %s plus 10 %% for growth, in 128M chunks", fmtBytes(data))
		}
		if v := sizeBytes(target); v <= pool*1.1 {
			return ""
		}
		return fmt.Sprintf("set innodb_buffer_pool_size=%s (%s; it is %s now) if this server runs nothing else "+
			"big; it can be resized online (SET GLOBAL innodb_buffer_pool_size)", target, why, fmtBytes(pool))
	case data > pool*1.1:
		return fmt.Sprintf("size innodb_buffer_pool_size towards %s (the InnoDB files are %s; it is %s now), "+
			"within 70–80 %% of the server's RAM", roundSize(data*1.1, true), fmtBytes(data), fmtBytes(pool))
	}
	return ""
}

// roundSize rounds to a size my.cnf spells plainly: whole GiB from 16G,
// else 128M steps (InnoDB rounds the pool to its chunk size, 128M by
// default, anyway); up when the size must hold data, else to the nearest.
func roundSize(b float64, up bool) string {
	half := 0.5
	if up {
		half = 0.999
	}
	if b >= 16<<30 {
		return fmt.Sprintf("%dG", int64(b/(1<<30)+half))
	}
	return fmt.Sprintf("%dM", max(int64(b/(128<<20)+half), 1)*128)
}

// sizeBytes reads back what roundSize wrote.
func sizeBytes(s string) float64 {
	var n float64
	var unit string
	fmt.Sscanf(s, "%f%s", &n, &unit)
	if unit == "G" {
		return n * (1 << 30)
	}
	return n * (1 << 20)
}

// fmtShare writes a percentage, with a decimal below 10 so 0.4 % is not "0 %".
func fmtShare(p float64) string {
	if p < 0.1 {
		return "under 0.1"
	}
	if p < 10 {
		return fmt.Sprintf("%.1f", p)
	}
	return fmt.Sprintf("%.0f", p)
}
