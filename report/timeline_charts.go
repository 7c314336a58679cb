package report

import (
	"sort"

	"github.com/mytop-go/mytop-go/snapshot"
)

// timelineChart is one chart of the postmortem: its name (the series'
// Chart), its title and unit as the HTML draws them, whether its layers stack,
// and the frame's values for it.
type timelineChart struct {
	name, title, unit string
	stacked           bool
	values            func(f *snapshot.Frame, put func(name, unit string, v float64))
}

// timelineCharts are drawn in this order, each only when the source has it.
var timelineCharts = []timelineChart{
	{"load", "Database load by wait class", "sessions", true, loadValues},
	{"queries", "Queries", "/s", false, queryValues},
	{"threads", "Threads running", "threads", false, threadValues},
	{"cpu", "Host CPU", "%", true, cpuValues},
	{"runqueue", "Run queue", "threads", false, runQueueValues},
	{"disk_util", "Disk busy, per device", "%", false, diskUtilValues},
	{"disk_await", "Disk await, per device", "ms", false, diskAwaitValues},
	{"replication", "Replication lag, per channel", "s", false, replicationValues},
	{"checkpoint", "Checkpoint age", "% of redo", false, checkpointValues},
	{"bp_miss", "Buffer pool misses", "%", false, missValues},
	{"evidence", "Rates the findings cite", "/s", false, evidenceValues},
}

func loadValues(f *snapshot.Frame, put func(string, string, float64)) {
	if f.Load == nil {
		return
	}
	for c, v := range f.Load.Classes {
		put(snapshot.WaitClass(c).String(), "sessions", v)
	}
}

func queryValues(f *snapshot.Frame, put func(string, string, float64)) {
	if v, ok := f.Rates.Rate("Questions"); ok {
		put("queries", "/s", v)
	}
}

func threadValues(f *snapshot.Frame, put func(string, string, float64)) {
	if v, ok := f.Snapshot.StatusFloat("Threads_running"); ok {
		put("threads running", "", v)
	}
}

func cpuValues(f *snapshot.Frame, put func(string, string, float64)) {
	if f.Rates == nil || f.Rates.Host == nil || f.Rates.Host.CPU.Total() <= 0 {
		return
	}
	c := f.Rates.Host.CPU
	put("user", "%", c.User+c.Nice)
	put("system", "%", c.System+c.IRQ+c.SoftIRQ)
	put("iowait", "%", c.IOWait)
	put("steal", "%", c.Steal)
}

func runQueueValues(f *snapshot.Frame, put func(string, string, float64)) {
	if v, ok := runQueue(f); ok {
		put("runnable", "", v)
	}
}

func diskUtilValues(f *snapshot.Frame, put func(string, string, float64)) {
	if f.Rates == nil || f.Rates.Host == nil {
		return
	}
	for _, d := range f.Rates.Host.Disks {
		put(d.Name, "%", d.UtilPercent)
	}
}

func diskAwaitValues(f *snapshot.Frame, put func(string, string, float64)) {
	if f.Rates == nil || f.Rates.Host == nil {
		return
	}
	for _, d := range f.Rates.Host.Disks {
		if d.ReadsPerSec+d.WritesPerSec > 0 {
			put(d.Name, "ms", d.AwaitMS)
		}
	}
}

func replicationValues(f *snapshot.Frame, put func(string, string, float64)) {
	for _, c := range f.Snapshot.Channels() {
		if lag, ok := c.Lag(); ok {
			put(c.Label(), "s", float64(lag))
		}
	}
}

func checkpointValues(f *snapshot.Frame, put func(string, string, float64)) {
	if i := f.Snapshot.InnoDB; i != nil && i.Log.Present && i.Log.CheckpointAgePercent > 0 {
		put("checkpoint age", "%", i.Log.CheckpointAgePercent)
	}
}

func missValues(f *snapshot.Frame, put func(string, string, float64)) {
	if v, ok := bufferPoolMiss(f); ok {
		put("misses", "%", v)
	}
}

// findingCounters are the status counters whose rates a finding's evidence
// quotes: drawn while that finding is in the source, so the chart shows the
// rise its evidence describes.
var findingCounters = map[string][]string{
	"row_lock_waits":        {"Innodb_row_lock_waits"},
	"hot_rows":              {"Innodb_row_lock_waits"},
	"deadlock":              {"Innodb_deadlocks"},
	"tmp_disk_tables":       {"Created_tmp_disk_tables"},
	"sort_merge_passes":     {"Sort_merge_passes"},
	"log_buffer_waits":      {"Innodb_log_waits"},
	"buffer_pool_miss":      {"Innodb_buffer_pool_reads"},
	"buffer_pool_wait_free": {"Innodb_buffer_pool_wait_free"},
	"full_scan_update":      {"Handler_read_rnd_next"},
	"full_scan_select":      {"Handler_read_rnd_next", "Select_scan"},
	"full_scan_storm":       {"Handler_read_rnd_next", "Select_scan"},
	"table_lock_contention": {"Table_locks_waited"},
	"table_cache_thrash":    {"Table_open_cache_misses", "Opened_tables"},
	"thread_cache_miss":     {"Threads_created"},
	"connection_errors":     {"Aborted_connects", "Access_denied_errors"},
	"binlog_cache_spill":    {"Binlog_cache_disk_use"},
	"commit_fsync_bound":    {"Innodb_data_fsyncs"},
	"read_ahead_evicted":    {"Innodb_buffer_pool_read_ahead_evicted"},
}

// evidenceValues records every counter a finding may cite; the timeline keeps
// those of the findings the source had (citedCounters), over the whole span,
// so a rate's rise before its finding's onset is on the chart too.
func evidenceValues(f *snapshot.Frame, put func(string, string, float64)) {
	for _, name := range evidenceCounterNames {
		if v, ok := f.Rates.Rate(name); ok {
			put(name, "/s", v)
		}
	}
}

var evidenceCounterNames = func() []string {
	seen := map[string]bool{}
	var out []string
	for _, cs := range findingCounters {
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	sort.Strings(out)
	return out
}()

// citedCounters are the counters the episodes' findings cite.
func citedCounters(bands []snapshot.Span) map[string]bool {
	out := map[string]bool{}
	for _, b := range bands {
		for _, c := range findingCounters[b.ID] {
			out[c] = true
		}
	}
	return out
}
