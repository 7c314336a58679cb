package recording

import (
	"errors"

	"github.com/mytop-go/mytop-go/snapshot"
)

// storedProcesslist is the processlist in column form. Measured on a server
// with 100 busy connections, one object per thread made the processlist half
// of every delta frame: each thread that changed statement broke zstd's
// match with the previous frame twice, once for its text and once for its
// time. In columns the strings are small indexes into a table kept stable
// from frame to frame, so a thread that changes statement changes a digit or
// two in the same column, and zstd codes those as cheap literals.
//
// Times are stored against a base: time_ms = base_ms - since_ms. A thread
// that stays in its state keeps its since_ms while base_ms moves with the
// clock (see processlistForm.nextBase), instead of every thread's time
// changing every second.
type storedProcesslist struct {
	// Strings holds user, host, db, command, state and info values; the
	// columns below index it. Slots unused by this frame may hold anything.
	Strings []string `json:"strings"`
	BaseMS  int64    `json:"base_ms"`
	ID      []int64  `json:"id"`
	User    []int    `json:"user"`
	Host    []int    `json:"host"`
	DB      []int    `json:"db"`
	Command []int    `json:"command"`
	State   []int    `json:"state"`
	Info    []int    `json:"info"`
	SinceMS []int64  `json:"since_ms"`
	// Omitted when every thread has the zero value.
	ExaminedRows []int64   `json:"examined_rows,omitempty"`
	Progress     []float64 `json:"progress,omitempty"`
	NoIndexUsed  []bool    `json:"no_index_used,omitempty"`
}

// processlistForm remembers what the previous frame stored.
type processlistForm struct {
	table  []string       // previous frame's string table
	slot   map[string]int // its inverse
	baseMS int64
	prev   map[int64]prevThread
}

// prevThread is what the time base heuristic needs of a thread.
type prevThread struct {
	timeMS int64
	doing  [3]string // command, state, info
}

func (f *processlistForm) encode(procs []snapshot.Process, key bool) *storedProcesslist {
	if key || f.slot == nil {
		f.table, f.slot = nil, map[string]int{}
	}
	f.placeStrings(procs)
	f.baseMS = f.nextBase(procs)
	n := len(procs)
	st := &storedProcesslist{
		Strings: append([]string(nil), f.table...), BaseMS: f.baseMS,
		ID: make([]int64, n), User: make([]int, n), Host: make([]int, n), DB: make([]int, n),
		Command: make([]int, n), State: make([]int, n), Info: make([]int, n), SinceMS: make([]int64, n),
	}
	var examined, progress, noIndex bool
	prev := make(map[int64]prevThread, n)
	for i, p := range procs {
		st.ID[i] = p.ID
		st.User[i], st.Host[i], st.DB[i] = f.slot[p.User], f.slot[p.Host], f.slot[p.DB]
		st.Command[i], st.State[i], st.Info[i] = f.slot[p.Command], f.slot[p.State], f.slot[p.Info]
		st.SinceMS[i] = f.baseMS - p.TimeMS
		examined = examined || p.ExaminedRows != 0
		progress = progress || p.Progress != 0
		noIndex = noIndex || p.NoIndexUsed
		prev[p.ID] = prevThread{p.TimeMS, [3]string{p.Command, p.State, p.Info}}
	}
	f.prev = prev
	if examined {
		st.ExaminedRows = make([]int64, n)
		for i, p := range procs {
			st.ExaminedRows[i] = p.ExaminedRows
		}
	}
	if progress {
		st.Progress = make([]float64, n)
		for i, p := range procs {
			st.Progress[i] = p.Progress
		}
	}
	if noIndex {
		st.NoIndexUsed = make([]bool, n)
		for i, p := range procs {
			st.NoIndexUsed[i] = p.NoIndexUsed
		}
	}
	return st
}

// placeStrings gives every string of procs a slot in the table: the slot it
// had in the previous frame, else one the previous frame had but this one
// does not use, else a new one at the end. Reusing slots keeps the table as
// long as the most strings one frame has needed since the last keyframe.
func (f *processlistForm) placeStrings(procs []snapshot.Process) {
	used := make([]bool, len(f.table))
	var fresh []string
	for _, p := range procs {
		for _, s := range [...]string{p.User, p.Host, p.DB, p.Command, p.State, p.Info} {
			if i, ok := f.slot[s]; ok {
				if i >= 0 {
					used[i] = true
				}
			} else {
				f.slot[s] = -1 // placed below, once
				fresh = append(fresh, s)
			}
		}
	}
	free := 0
	for _, s := range fresh {
		for free < len(used) && used[free] {
			free++
		}
		if free < len(used) {
			delete(f.slot, f.table[free])
			f.table[free], used[free] = s, true
			f.slot[s] = free
			continue
		}
		f.slot[s] = len(f.table)
		f.table = append(f.table, s)
		used = append(used, true)
	}
}

// nextBase moves the time base by how much time the threads that kept their
// state spent in it since the previous frame (the most common difference),
// so their since_ms repeats. The base is only an offset: any value decodes
// exactly, and a poor guess only costs bytes.
func (f *processlistForm) nextBase(procs []snapshot.Process) int64 {
	if f.prev == nil {
		base := int64(0)
		for _, p := range procs {
			base = max(base, p.TimeMS)
		}
		return base // since_ms >= 0: short numbers
	}
	counts := map[int64]int{}
	best, bestN := int64(0), 0
	for _, p := range procs {
		q, ok := f.prev[p.ID]
		if !ok || q.doing != [3]string{p.Command, p.State, p.Info} || p.TimeMS < q.timeMS {
			continue
		}
		d := p.TimeMS - q.timeMS
		counts[d]++
		if n := counts[d]; n > bestN || n == bestN && d < best {
			best, bestN = d, n
		}
	}
	return f.baseMS + best
}

var errColumns = errors.New("processlist columns of unequal length")

// rows rebuilds the processlist.
func (st *storedProcesslist) rows() ([]snapshot.Process, error) {
	n := len(st.ID)
	for _, c := range [][]int{st.User, st.Host, st.DB, st.Command, st.State, st.Info} {
		if len(c) != n {
			return nil, errColumns
		}
	}
	if len(st.SinceMS) != n || !optional(len(st.ExaminedRows), n) || !optional(len(st.Progress), n) ||
		!optional(len(st.NoIndexUsed), n) {
		return nil, errColumns
	}
	str := func(i int) (string, error) {
		if i < 0 || i >= len(st.Strings) {
			return "", errors.New("processlist string index out of range")
		}
		return st.Strings[i], nil
	}
	out := make([]snapshot.Process, n)
	for i := range out {
		p := &out[i]
		p.ID, p.TimeMS = st.ID[i], st.BaseMS-st.SinceMS[i]
		for _, c := range [...]struct {
			dst *string
			idx int
		}{{&p.User, st.User[i]}, {&p.Host, st.Host[i]}, {&p.DB, st.DB[i]},
			{&p.Command, st.Command[i]}, {&p.State, st.State[i]}, {&p.Info, st.Info[i]}} {
			s, err := str(c.idx)
			if err != nil {
				return nil, err
			}
			*c.dst = s
		}
		if st.ExaminedRows != nil {
			p.ExaminedRows = st.ExaminedRows[i]
		}
		if st.Progress != nil {
			p.Progress = st.Progress[i]
		}
		if st.NoIndexUsed != nil {
			p.NoIndexUsed = st.NoIndexUsed[i]
		}
	}
	return out, nil
}

// optional reports whether a column of length got may accompany n threads:
// all of them, or omitted.
func optional(got, n int) bool { return got == 0 || got == n }
