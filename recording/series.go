package recording

import (
	"math"

	"github.com/mytop-go/mytop-go/snapshot"
)

// seriesColumns are the series table's figure columns, in seriesRow order.
var seriesColumns = []string{
	"qps", "threads_running", "threads_connected", "active_queries", "longest_query_s",
	"bp_miss_pct", "row_lock_waits", "history_list_length", "checkpoint_age_pct",
	"slow_queries_ps", "tmp_disk_tables_ps", "cpu_busy_pct", "cpu_iowait_pct",
	"run_queue", "blocked", "swap_in_ps", "swap_out_ps", "disk_util_max", "disk_await_max_ms",
}

// seriesRow computes the key per-second figures of f, one value per
// seriesColumns entry; nil (SQL NULL) when the source does not tell. Figures
// are rounded (see roughly): the frames hold the exact values.
func seriesRow(f *snapshot.Frame) []any {
	row := exactSeriesRow(f)
	for i, v := range row {
		if x, ok := v.(float64); ok {
			row[i] = roughly(x, seriesColumns[i] == "bp_miss_pct")
		}
	}
	return row
}

// roughly rounds a figure to whole units from 10 up and to a tenth below
// (a hundredth for fine, for the buffer pool miss ratio, whose interesting
// values are small). SQLite stores a whole REAL in 0-2 bytes instead of 8,
// which halves a series row.
func roughly(v float64, fine bool) float64 {
	switch {
	case math.Abs(v) >= 10:
		return math.Round(v)
	case fine:
		return math.Round(v*100) / 100
	default:
		return math.Round(v*10) / 10
	}
}

func exactSeriesRow(f *snapshot.Frame) []any {
	s, r := f.Snapshot, f.Rates
	active, longest := activeQueries(s.Processlist)
	row := []any{
		rate(r, "Questions"), status(s, "Threads_running"), status(s, "Threads_connected"),
		active, longest,
		bufferPoolMissPct(r), status(s, "Innodb_row_lock_current_waits"),
		historyListLength(s), checkpointAgePct(s),
		rate(r, "Slow_queries"), rate(r, "Created_tmp_disk_tables"),
	}
	return append(row, hostFigures(s, r)...)
}

func rate(r *snapshot.Rates, name string) any {
	if v, ok := r.Rate(name); ok {
		return v
	}
	return nil
}

func status(s *snapshot.Snapshot, name string) any {
	if v, ok := s.StatusInt(name); ok {
		return v
	}
	return nil
}

// activeQueries counts processlist rows doing something (not Sleep, not
// daemons) and the longest such one's seconds in state.
func activeQueries(ps []snapshot.Process) (any, any) {
	if ps == nil {
		return nil, nil
	}
	n, longest := int64(0), 0.0
	for _, p := range ps {
		switch p.Command {
		case "Sleep", "Daemon", "Binlog Dump", "Binlog Dump GTID", "Slave_IO", "Slave_SQL", "Slave_worker":
			continue
		}
		n++
		longest = max(longest, float64(p.TimeMS)/1000)
	}
	return n, longest
}

func bufferPoolMissPct(r *snapshot.Rates) any {
	reads, ok1 := r.Rate("Innodb_buffer_pool_reads")
	reqs, ok2 := r.Rate("Innodb_buffer_pool_read_requests")
	if !ok1 || !ok2 {
		return nil
	}
	if reqs <= 0 {
		return 0.0
	}
	return min(reads/reqs*100, 100)
}

func historyListLength(s *snapshot.Snapshot) any {
	if s.InnoDB != nil && s.InnoDB.Transactions.Present {
		return s.InnoDB.Transactions.HistoryListLength
	}
	return status(s, "Innodb_history_list_length")
}

func checkpointAgePct(s *snapshot.Snapshot) any {
	if s.InnoDB != nil && s.InnoDB.Log.CheckpointAgePercent > 0 {
		return s.InnoDB.Log.CheckpointAgePercent
	}
	return nil
}

// hostFigures returns cpu_busy_pct .. disk_await_max_ms.
func hostFigures(s *snapshot.Snapshot, r *snapshot.Rates) []any {
	out := make([]any, 8)
	if s.Host != nil && !s.Host.Remote {
		out[2], out[3] = s.Host.ProcsRunning, s.Host.ProcsBlocked
	}
	if r == nil || r.Host == nil {
		return out
	}
	h := r.Host
	if h.CPU.Total() > 0 {
		out[0] = max(0, 100-h.CPU.Idle-h.CPU.IOWait)
		out[1] = h.CPU.IOWait
	}
	out[4], out[5] = h.SwapIn, h.SwapOut
	if len(h.Disks) > 0 {
		util, await := 0.0, 0.0
		for _, d := range h.Disks {
			util, await = max(util, d.UtilPercent), max(await, d.AwaitMS)
		}
		out[6], out[7] = util, await
	}
	return out
}
