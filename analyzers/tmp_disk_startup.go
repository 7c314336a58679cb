package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The share of temporary tables created on disk is a configuration check
// read since start-up (PMM-C mysql_performance_temp_ondisk_table_high: > 5 %;
// MT L7988 reads Created_tmp_disk_tables / Created_tmp_tables since start-up,
// badprint > 25 %), not a per-second alarm: one interval's share swings with
// whatever ran in it (a dump's information_schema reads are all on disk). It
// is said at info once the server has been up long enough for the totals to
// describe its usual work (MT: results are inaccurate within 24 hours).
func tmpConfigCheck(w *window, c *Config) verdict {
	up, ok := w.snap.Uptime()
	if !ok || time.Duration(up)*time.Second < c.TmpDiskConfigMinUptime {
		return quiet()
	}
	disk, ok1 := w.snap.StatusFloat(tmpDisk)
	all, ok2 := w.snap.StatusFloat(tmpTables)
	if !ok1 || !ok2 || all < c.TmpDiskConfigMinTables {
		return quiet()
	}
	share := 100 * disk / max(all, disk)
	if share <= c.TmpDiskShareWarn {
		return quiet()
	}
	ev := []string{fmt.Sprintf("since start-up %s days ago %s of %s temporary tables went to disk (%.1f %%; "+
		"PMM-C checks 5 %%, MySQLTuner 25 %%)", fmtRate(float64(up)/86400), fmtCount(int64(disk)), fmtCount(int64(all)), share)}
	ev = appendNonEmpty(ev, tmpSizes(w))
	return raise(snapshot.Info, fmt.Sprintf("%.0f %% of temporary tables since start-up went to disk (configuration check)",
		share), ev, tmpAdvice(w, nil), nil)
}
