package analyzers

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Connections are named by cpu_saturation and disk_saturation when they use
// at least this much, so an idle server's noise is never "the top consumer".
const (
	topThreadMinCPU = 10.0    // percent of one core
	topThreadMinIO  = 1 << 20 // bytes per second, read plus write
	topThreads      = 3
)

// topThreadsBy is the evidence that names the connections using the most of
// the host (CPU, or storage I/O) over the current interval, from the OS
// threads behind them (snapshot.ThreadRates), and their processlist ids for
// the finding's Threads. Empty when the source has no per-thread figures.
type topThreadsBy struct {
	lines []string
	ids   []int64
}

// topConnectionsByCPU names the connections burning the most CPU, with how
// much of mysqld's own CPU the connections account for.
func (w *window) topConnectionsByCPU() topThreadsBy {
	t := w.threadRates()
	if t == nil {
		return topThreadsBy{}
	}
	top := w.topConnections(t, func(r snapshot.TaskRate) float64 { return r.CPU }, topThreadMinCPU,
		func(r snapshot.TaskRate) string { return fmt.Sprintf("%.0f %% CPU", r.CPU) })
	if len(top.lines) > 0 {
		top.lines = append([]string{fmt.Sprintf("mysqld uses %.0f %% of a core, its connections %.0f %%; the busiest:",
			t.Process.CPU, t.ConnCPU)}, top.lines...)
	}
	return top
}

// topConnectionsByIO names the connections reading and writing the most.
func (w *window) topConnectionsByIO() topThreadsBy {
	t := w.threadRates()
	if t == nil || t.NoIO {
		return topThreadsBy{}
	}
	top := w.topConnections(t, func(r snapshot.TaskRate) float64 { return r.ReadBps + r.WriteBps }, topThreadMinIO,
		func(r snapshot.TaskRate) string {
			return fmt.Sprintf("reads %s/s, writes %s/s", fmtBytes(r.ReadBps), fmtBytes(r.WriteBps))
		})
	if len(top.lines) > 0 {
		top.lines = append([]string{fmt.Sprintf("mysqld reads %s/s, writes %s/s; the busiest connections:",
			fmtBytes(t.Process.ReadBps), fmtBytes(t.Process.WriteBps))}, top.lines...)
	}
	return top
}

func (w *window) threadRates() *snapshot.ThreadRates {
	if w.rates == nil {
		return nil
	}
	return w.rates.Threads
}

func (w *window) topConnections(t *snapshot.ThreadRates, use func(snapshot.TaskRate) float64, least float64,
	describe func(snapshot.TaskRate) string) topThreadsBy {
	conns := slices.Clone(t.Conns)
	slices.SortStableFunc(conns, func(a, b snapshot.TaskRate) int {
		return cmp.Or(cmp.Compare(use(b), use(a)), cmp.Compare(a.Conn, b.Conn))
	})
	var top topThreadsBy
	for _, r := range conns {
		if len(top.ids) == topThreads || use(r) < least {
			break
		}
		line := fmt.Sprintf("%s: connection %d", describe(r), r.Conn)
		if p := w.processes().byID(r.Conn); p != nil {
			line = describe(r) + ": " + threadLine(p)
		}
		top.lines = append(top.lines, line)
		top.ids = append(top.ids, r.Conn)
	}
	return top
}
