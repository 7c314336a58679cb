package recording

import (
	"errors"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// storedThreads is mysqld's per-thread counters as version 3 stores them
// (chain.th, form_chain.go), in columns: one entry per task, in the
// collector's order. The cumulative CPU and I/O counters of 100 busy
// connections change every second, and as numbers each change broke the
// previous frame's match (about 500 B of a 1,170 B delta frame); as
// differences from the previous frame they are mostly single digits that
// Huffman-code to a few bits each.
//
// With Rel set, cpu, rb and wb hold each task's counter minus the same TID's
// counter in the previous frame (a TID absent there: minus 0); without it,
// the counters themselves. Keyframes and the frame after one without
// threads are never relative, so a keyframe group decodes from its keyframe
// as the zstd dictionary chain already requires.
type storedThreads struct {
	PID        int                   `json:"pid"`
	ClockTicks int                   `json:"clk_tck"`
	Process    snapshot.TaskCounters `json:"process"`
	NoIO       string                `json:"no_io,omitempty"`
	TID        []int64               `json:"tid"`
	// Conn is omitted when every task's is zero. Name holds the names of
	// named tasks by TID, and may hold TIDs that are not in this frame: the
	// background threads are read every few ticks, and a name kept since
	// the keyframe repeats the previous frame's bytes where a column of
	// names would change whenever one came or went.
	Conn []int64          `json:"conn,omitempty"`
	Name map[int64]string `json:"name,omitempty"`
	Rel  bool             `json:"rel,omitempty"`
	// Run lists the tasks that were runnable when read (few, and a short
	// list repeats the previous frame's bytes more often than a column).
	Run []int64 `json:"run,omitempty"`
	// CPU, RB and WB are writeCounter columns (form_digits.go).
	CPU string `json:"cpu"`
	RB  string `json:"rb"`
	WB  string `json:"wb"`
}

// threadsForm remembers the counters of the last frame written, the base
// of the next frame's differences.
type threadsForm struct {
	base  map[int64]snapshot.TaskCounters
	names map[int64]string // every named TID since the keyframe
}

// maxStickyNames bounds threadsForm.names between keyframes.
const maxStickyNames = 1000

func (f *threadsForm) encode(t *snapshot.Threads, key bool) *storedThreads {
	base := f.base
	if key || len(f.names) > maxStickyNames {
		f.names = nil
	}
	if key {
		base = nil
	}
	st := &storedThreads{PID: t.PID, ClockTicks: t.ClockTicks, Process: t.Process, NoIO: t.NoIO, Rel: base != nil,
		TID: make([]int64, len(t.Tasks))}
	var conn []int64
	var cpu, rb, wb strings.Builder
	next := make(map[int64]snapshot.TaskCounters, len(t.Tasks))
	for i, c := range t.Tasks {
		st.TID[i] = c.TID
		if c.Conn != 0 && conn == nil {
			conn = make([]int64, len(t.Tasks))
		}
		if conn != nil {
			conn[i] = c.Conn
		}
		if n, ok := f.names[c.TID]; c.Name == "" && ok {
			delete(f.names, c.TID) // the TID now belongs to an unnamed thread
		} else if c.Name != n {
			if f.names == nil {
				f.names = map[int64]string{}
			}
			f.names[c.TID] = c.Name
		}
		if c.Runnable {
			st.Run = append(st.Run, c.TID)
		}
		b := base[c.TID]
		writeCounter(&cpu, c.CPUTicks-b.CPUTicks, 1)
		writeCounter(&rb, c.ReadBytes-b.ReadBytes, pageBytes)
		writeCounter(&wb, c.WriteBytes-b.WriteBytes, pageBytes)
		next[c.TID] = c
	}
	st.Conn = conn
	if len(f.names) > 0 {
		st.Name = make(map[int64]string, len(f.names))
		for k, v := range f.names {
			st.Name[k] = v
		}
	}
	st.CPU, st.RB, st.WB = cpu.String(), rb.String(), wb.String()
	f.base = next
	return st
}

// forget makes the next frame's counters absolute: the frame last encoded
// was not stored, so the reader will not have it as the base.
func (f *threadsForm) forget() { f.base = nil }

var errThreadColumns = errors.New("thread columns damaged")

// threads rebuilds the cumulative counters; prev is the previous frame's
// (nil when it had none).
func (st *storedThreads) threads(prev *snapshot.Threads) (*snapshot.Threads, error) {
	n := len(st.TID)
	if st.Conn != nil && len(st.Conn) != n {
		return nil, errThreadColumns
	}
	var base map[int64]snapshot.TaskCounters
	if st.Rel {
		if prev == nil {
			return nil, errors.New("thread counters relative to a frame without threads")
		}
		base = make(map[int64]snapshot.TaskCounters, len(prev.Tasks))
		for _, c := range prev.Tasks {
			base[c.TID] = c
		}
	}
	t := &snapshot.Threads{PID: st.PID, ClockTicks: st.ClockTicks, Process: st.Process, NoIO: st.NoIO}
	if n == 0 {
		if st.CPU != "" || st.RB != "" || st.WB != "" {
			return nil, errThreadColumns
		}
		return t, nil
	}
	cpu, err1 := readCounters(st.CPU, n, 1)
	rb, err2 := readCounters(st.RB, n, pageBytes)
	wb, err3 := readCounters(st.WB, n, pageBytes)
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, err
	}
	t.Tasks = make([]snapshot.TaskCounters, n)
	run := make(map[int64]bool, len(st.Run))
	for _, tid := range st.Run {
		run[tid] = true
	}
	for i, tid := range st.TID {
		b := base[tid]
		c := snapshot.TaskCounters{TID: tid, CPUTicks: b.CPUTicks + cpu[i], ReadBytes: b.ReadBytes + rb[i],
			WriteBytes: b.WriteBytes + wb[i], Runnable: run[tid]}
		if st.Conn != nil {
			c.Conn = st.Conn[i]
		}
		c.Name = st.Name[tid]
		t.Tasks[i] = c
	}
	return t, nil
}
