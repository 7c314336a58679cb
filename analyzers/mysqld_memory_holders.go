package analyzers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// What holds mysqld's memory, where the server tells: MariaDB's own count
// (Memory_used), its MEMORY tables and who writes them, the connections
// holding most (the processlist's MEMORY_USED), and performance_schema's
// instrumented allocations.

// memoryHolderMin is the size below which a holder is not worth a line.
const memoryHolderMin = 64 << 20

// memoryHolderLines lists what holds the memory, and the advice for the
// biggest holder found.
func memoryHolderLines(w *window, g memGrowth) ([]string, string) {
	var ev []string
	advice := "Find what grows: a MEMORY or temporary table, a session's buffers, a huge IN list or a leak; " +
		"lower per-session buffers (sort_buffer_size, join_buffer_size, tmp_table_size) or the buffer pool, " +
		"or end the session that grows. mysqld is the OOM killer's first choice on a database host."
	if used, ok := w.snap.StatusFloat("Memory_used"); ok {
		ev = append(ev, fmt.Sprintf("the server counts %s allocated (Memory_used), %+.0f MB/s", fmtBytes(used),
			g.used/(1<<20)))
	}
	if m := w.snap.Memory; m != nil {
		for _, t := range m.Tables {
			if t.Bytes < memoryHolderMin {
				continue
			}
			line := fmt.Sprintf("MEMORY table %s holds %s (%s rows)", t.Name, fmtBytes(float64(t.Bytes)), fmtCount(t.Rows))
			writers := memoryTableWriters(w, t.Name)
			for _, p := range writers {
				line += fmt.Sprintf("; written by thread %d", p.ID)
			}
			ev = append(ev, line)
			if advice != "" && !strings.HasPrefix(advice, "A MEMORY table") {
				advice = fmt.Sprintf("A MEMORY table grows without bound up to max_heap_table_size, which is "+
					"per table and set by the session that created it: stop what fills %s", t.Name)
				if len(writers) > 0 {
					advice += fmt.Sprintf(" (KILL QUERY %d)", writers[0].ID)
				}
				advice += ", TRUNCATE or drop it, and keep max_heap_table_size small."
			}
		}
		for _, e := range m.Events {
			if e.Bytes >= memoryHolderMin {
				ev = append(ev, fmt.Sprintf("performance_schema: %s holds %s", e.Name, fmtBytes(float64(e.Bytes))))
			}
		}
	}
	for _, p := range biggestSessions(w) {
		ev = append(ev, fmt.Sprintf("session holds %s: %s", fmtBytes(float64(p.MemoryBytes)), threadLine(p)))
	}
	return ev, advice
}

// memoryTableWriters are the running statements that name table.
func memoryTableWriters(w *window, table string) []*snapshot.Process {
	var out []*snapshot.Process
	for i := range w.snap.Processlist {
		p := &w.snap.Processlist[i]
		if p.Info == "" || !isWorking(p) {
			continue
		}
		if hasTable(statementTables(p.Info), table) {
			out = append(out, p)
		}
	}
	return out[:min(len(out), 3)]
}

// biggestSessions are the connections holding the most memory, by what the
// server says each holds (MariaDB's MEMORY_USED).
func biggestSessions(w *window) []*snapshot.Process {
	var out []*snapshot.Process
	for i := range w.snap.Processlist {
		if p := &w.snap.Processlist[i]; p.MemoryBytes >= memoryHolderMin {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *snapshot.Process) int { return int(b.MemoryBytes>>20 - a.MemoryBytes>>20) })
	return out[:min(len(out), 3)]
}

// memoryThreads are the threads the evidence names: a MEMORY table's
// writers, then the biggest sessions.
func memoryThreads(w *window) []int64 {
	var ids []int64
	if m := w.snap.Memory; m != nil {
		for _, t := range m.Tables {
			if t.Bytes >= memoryHolderMin {
				for _, p := range memoryTableWriters(w, t.Name) {
					ids = append(ids, p.ID)
				}
			}
		}
	}
	for _, p := range biggestSessions(w) {
		if !slices.Contains(ids, p.ID) {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// perSessionBuffers are the buffers a session may allocate for itself.
var perSessionBuffers = []string{"sort_buffer_size", "join_buffer_size", "read_buffer_size",
	"read_rnd_buffer_size", "thread_stack", "binlog_cache_size", "net_buffer_length"}

// memorySuspects is the usual suspects among the variables: the buffer pool
// plus per-session buffers for every allowed connection, against the
// memory mysqld may use.
func memorySuspects(w *window, ceiling float64) string {
	pool, ok := w.snap.VarFloat("innodb_buffer_pool_size")
	if !ok {
		return ""
	}
	var per float64
	for _, name := range perSessionBuffers {
		if v, ok := w.snap.VarFloat(name); ok {
			per += v
		}
	}
	tmp, _ := w.snap.VarFloat("tmp_table_size")
	heap, _ := w.snap.VarFloat("max_heap_table_size")
	per += min(tmp, heap)
	conns, _ := w.snap.VarFloat("max_connections")
	connected, _ := w.snap.StatusFloat("Threads_connected")
	worst := pool + per*conns
	return fmt.Sprintf("variables: buffer pool %s + per-session buffers up to %s × %.0f max_connections "+
		"(%.0f connected) = %s at worst, against %s", fmtBytes(pool), fmtBytes(per), conns, connected,
		fmtBytes(worst), fmtBytes(ceiling))
}
