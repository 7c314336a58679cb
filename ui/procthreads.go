package ui

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// threadCols is what the CPU%, Read/s, Write/s and Mem columns show for one
// frame: each connection's thread over the last interval, from Rates.Threads.
type threadCols struct {
	rates *snapshot.ThreadRates
	// source: the frame has per-thread figures (a live local server or its
	// recording). Without them the columns show "–", missing, not zero.
	source bool
	// na is why a source that could have them has none (remote server,
	// thread pool, no permission): the columns say "n/a", the header why.
	na string
	// read are the connections whose thread was read this tick: one without
	// a rate yet shows "…" rather than an idle thread's 0.
	read map[int64]bool
}

func threadColsOf(f *snapshot.Frame) threadCols {
	s := f.Snapshot
	t := threadCols{source: s.Threads != nil}
	if f.Rates != nil {
		t.rates = f.Rates.Threads
	}
	if st, ok := s.Collectors[snapshot.CollectorThreads]; ok && s.Threads == nil {
		t.na = st.Unavailable
		if t.na == "" {
			t.na = st.Error
		}
		if t.na == "" {
			t.na = "no per-thread figures this tick"
		}
	}
	if s.Threads != nil {
		t.read = make(map[int64]bool, len(s.Threads.Tasks))
		for _, c := range s.Threads.Tasks {
			if c.Conn != 0 {
				t.read[c.Conn] = true
			}
		}
	}
	return t
}

// noValue is how a missing figure sorts: below every real one.
const noValue = -1

// value returns a connection's figure for a thread column, or noValue with
// the text that stands in for it.
func (t *threadCols) value(p *snapshot.Process, col int) (float64, string) {
	if col == colMem {
		if p.MemoryBytes > 0 {
			return float64(p.MemoryBytes), ""
		}
		return noValue, t.missing()
	}
	if !t.source || p.OSThread == 0 {
		return noValue, t.missing()
	}
	if t.rates != nil && t.rates.NoIO && col != colCPU {
		return noValue, "n/a"
	}
	r, ok := t.rates.ForConn(p.ID)
	switch {
	case ok:
	case t.rates == nil || t.read[p.ID]:
		return noValue, "…" // first sample of this thread: a rate needs two
	default:
		return 0, "" // not read: idle for longer than two ticks
	}
	switch col {
	case colCPU:
		return r.CPU, ""
	case colRead:
		return r.ReadBps, ""
	default:
		return r.WriteBps, ""
	}
}

func (t *threadCols) missing() string {
	if t.na != "" {
		return "n/a"
	}
	return "–"
}

// threadCellText formats a thread column's cell.
func (t *threadCols) threadCellText(p *snapshot.Process, col int) string {
	v, text := t.value(p, col)
	if text != "" {
		return text
	}
	switch col {
	case colCPU:
		if v < 0.5 {
			return "0"
		}
		return fmt.Sprintf("%.0f", v)
	case colMem:
		return bytesShort(v)
	default:
		if v < 1 {
			return "0"
		}
		return bytesShort(math.Round(v))
	}
}

// compareThreadCol orders by a thread column, missing figures lowest.
func (t *threadCols) compareThreadCol(col int) func(a, b *snapshot.Process) int {
	return func(a, b *snapshot.Process) int {
		va, _ := t.value(a, col)
		vb, _ := t.value(b, col)
		return cmp.Compare(va, vb)
	}
}

// isThreadCol reports the columns threadCols fills.
func isThreadCol(col int) bool {
	return col == colCPU || col == colRead || col == colWrite || col == colMem
}

// withoutThreadCols drops the thread columns from a layout (the 'c' key).
func withoutThreadCols(cols []int) []int {
	out := make([]int, 0, len(cols))
	for _, c := range cols {
		if !isThreadCol(c) {
			out = append(out, c)
		}
	}
	return out
}

// mysqldItem is the header's "mysqld 93%" beside the host CPU, or why the
// per-thread figures are not there, said once here instead of in every row.
func mysqldItem(f *snapshot.Frame) string {
	t := threadColsOf(f)
	switch {
	case t.na != "":
		return "mysqld n/a: " + safeLine(t.na, 48)
	case t.rates != nil:
		return "mysqld " + pct(t.rates.Process.CPU)
	}
	return ""
}

// mysqldLines are the host panel's account of mysqld's CPU, so it adds up:
// "mysqld 180% = conns 150% + purge 20% + page cleaner 10%", then its I/O.
func mysqldLines(f *snapshot.Frame, width int) []string {
	t := threadColsOf(f)
	if t.na != "" {
		return []string{"[gray]mysqld per thread n/a: " + safeLine(t.na, 200) + "[-]"}
	}
	if t.rates == nil {
		return nil
	}
	r := t.rates
	parts := []string{"conns " + pct(r.ConnCPU)}
	for _, b := range r.Background {
		if b.CPU >= 0.5 {
			parts = append(parts, safeLine(b.Name, 20)+" "+pct(b.CPU))
		}
	}
	cpu := cutToWidth("mysqld "+pct(r.Process.CPU)+" = "+strings.Join(parts, " + "), width)
	if r.NoIO {
		why := "not readable"
		if th := f.Snapshot.Threads; th != nil && th.NoIO != "" {
			why = th.NoIO
		}
		return []string{cpu, "[gray]mysqld I/O n/a: " + safeLine(why, 200) + "[-]"}
	}
	return []string{cpu, fmt.Sprintf("mysqld I/O read %s/s write %s/s", bytesShort(r.Process.ReadBps),
		bytesShort(r.Process.WriteBps))}
}

// cutToWidth shortens a plain line to width runes, marking the cut.
func cutToWidth(s string, width int) string {
	r := []rune(s)
	if width <= 1 || len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}

func (d *Dashboard) toggleThreadCols() {
	d.list.hideThreads = !d.list.hideThreads
	d.procs.reselect()
}
