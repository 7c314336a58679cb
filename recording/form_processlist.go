package recording

import (
	"errors"

	"github.com/mytop-go/mytop-go/snapshot"
)

// storedProcesslist is the processlist in column form. Measured on a server
// with 100 busy connections, one object per thread made the processlist half
// of every delta frame: each thread that changed statement broke zstd's
// match with the previous frame twice, once for its text and once for its
// time. In columns, strings are indexes into a table whose slots stay put
// from frame to frame (form_slots.go), and what a thread is doing (command,
// state and statement, which change together) is one index into a table of
// such triples: a thread that changes statement changes one character of
// one column, which zstd codes as a cheap literal.
//
// Times are stored against a base: time_ms = base_ms - since_ms. A thread
// that stays in its state keeps its since_ms while base_ms moves with the
// clock (see processlistForm.nextBase), instead of every thread's time
// changing every second.
type storedProcesslist struct {
	// Strings holds the user, host, db, command, state and info values.
	// Slots no thread of this frame uses may hold anything.
	Strings []string `json:"strings"`
	// Activities are (command, state, info) triples, each three string
	// indexes, in form_indexes.go's digits.
	Activities string  `json:"activities"`
	BaseMS     int64   `json:"base_ms"`
	ID         []int64 `json:"id"`
	// Index columns: User, Host and DB into Strings, Activity into
	// Activities, in form_indexes.go's digits.
	User     string  `json:"user"`
	Host     string  `json:"host"`
	DB       string  `json:"db"`
	Activity string  `json:"activity"`
	SinceMS  []int64 `json:"since_ms"`
	// Omitted when every thread has the zero value.
	ExaminedRows []int64   `json:"examined_rows,omitempty"`
	Progress     []float64 `json:"progress,omitempty"`
	NoIndexUsed  []bool    `json:"no_index_used,omitempty"`
	OSThread     []int64   `json:"tid,omitempty"`
	MemoryBytes  []int64   `json:"memory_used,omitempty"`
}

// activity is what a thread is doing: its command, state and statement.
type activity struct{ command, state, info string }

func activityOf(p *snapshot.Process) activity { return activity{p.Command, p.State, p.Info} }

// processlistForm remembers what the previous frame stored, and keeps its
// buffers from frame to frame (5,000 threads are 30,000 strings a second).
type processlistForm struct {
	strings    slotTable[string]
	activities slotTable[activity]
	// triples holds each activity slot's string indexes. A slot no thread
	// uses keeps its last triple: indexes into a table that has only grown
	// since, so still in range, and the same bytes as before.
	triples    []int
	baseMS     int64
	prev, next map[int64]prevThread
	strs       []string
	acts       []activity
	sidx, aidx []int
}

// prevThread is what the time base heuristic needs of a thread.
type prevThread struct {
	timeMS int64
	doing  activity
}

func (f *processlistForm) encode(procs []snapshot.Process, key bool) *storedProcesslist {
	if key {
		f.strings.reset()
		f.activities.reset()
		f.triples = f.triples[:0]
	}
	n := len(procs)
	f.strs, f.acts = f.strs[:0], f.acts[:0]
	for i := range procs {
		p := &procs[i]
		f.strs = append(f.strs, p.User, p.Host, p.DB, p.Command, p.State, p.Info)
		f.acts = append(f.acts, activityOf(p))
	}
	f.sidx, f.aidx = resize(f.sidx, len(f.strs)), resize(f.aidx, n)
	f.strings.place(f.strs, f.sidx)
	f.activities.place(f.acts, f.aidx)
	if grow := 3*len(f.activities.items) - len(f.triples); grow > 0 {
		f.triples = append(f.triples, make([]int, grow)...)
	}
	cols := [3][]int{make([]int, n), make([]int, n), make([]int, n)} // user, host, db
	for i := range procs {
		s := f.sidx[6*i : 6*i+6]
		cols[0][i], cols[1][i], cols[2][i] = s[0], s[1], s[2]
		copy(f.triples[3*f.aidx[i]:], s[3:6])
	}
	f.baseMS = f.nextBase(procs)

	sw := indexWidth(len(f.strings.items))
	st := &storedProcesslist{
		Strings:    append([]string(nil), f.strings.items...),
		Activities: encodeIndexes(f.triples, sw),
		BaseMS:     f.baseMS,
		ID:         make([]int64, n),
		User:       encodeIndexes(cols[0], sw), Host: encodeIndexes(cols[1], sw), DB: encodeIndexes(cols[2], sw),
		Activity: encodeIndexes(f.aidx, indexWidth(len(f.activities.items))),
		SinceMS:  make([]int64, n),
	}
	if f.next == nil {
		f.next = make(map[int64]prevThread, n)
	}
	clear(f.next)
	var examined, progress, noIndex bool
	for i := range procs {
		p := &procs[i]
		st.ID[i], st.SinceMS[i] = p.ID, f.baseMS-p.TimeMS
		examined = examined || p.ExaminedRows != 0
		progress = progress || p.Progress != 0
		noIndex = noIndex || p.NoIndexUsed
		f.next[p.ID] = prevThread{p.TimeMS, f.acts[i]}
	}
	f.prev, f.next = f.next, f.prev
	if examined {
		st.ExaminedRows = make([]int64, n)
		for i := range procs {
			st.ExaminedRows[i] = procs[i].ExaminedRows
		}
	}
	if progress {
		st.Progress = make([]float64, n)
		for i := range procs {
			st.Progress[i] = procs[i].Progress
		}
	}
	if noIndex {
		st.NoIndexUsed = make([]bool, n)
		for i := range procs {
			st.NoIndexUsed[i] = procs[i].NoIndexUsed
		}
	}
	st.OSThread = optionalColumn(procs, func(p *snapshot.Process) int64 { return p.OSThread })
	st.MemoryBytes = optionalColumn(procs, func(p *snapshot.Process) int64 { return p.MemoryBytes })
	return st
}

// optionalColumn is one int64 field of every thread, nil when all are zero
// (sources without it store nothing).
func optionalColumn(procs []snapshot.Process, field func(*snapshot.Process) int64) []int64 {
	var col []int64
	for i := range procs {
		if v := field(&procs[i]); v != 0 && col == nil {
			col = make([]int64, len(procs))
		}
		if col != nil {
			col[i] = field(&procs[i])
		}
	}
	return col
}

// resize returns b with length n, reusing its array when it is large enough.
func resize(b []int, n int) []int {
	if cap(b) < n {
		return make([]int, n)
	}
	return b[:n]
}

// nextBase moves the time base by how much time the threads that kept their
// activity spent in it since the previous frame (the most common
// difference), so their since_ms repeats. The base is only an offset: any
// value decodes exactly, and a poor guess only costs bytes.
func (f *processlistForm) nextBase(procs []snapshot.Process) int64 {
	if f.prev == nil {
		base := int64(0)
		for i := range procs {
			base = max(base, procs[i].TimeMS)
		}
		return base // since_ms >= 0: short numbers
	}
	counts := map[int64]int{}
	best, bestN := int64(0), 0
	for i := range procs {
		p := &procs[i]
		q, ok := f.prev[p.ID]
		if !ok || q.doing != activityOf(p) || p.TimeMS < q.timeMS {
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

var (
	errColumns    = errors.New("processlist columns of unequal length")
	errIndexRange = errors.New("processlist index out of range")
)

// rows rebuilds the processlist.
func (st *storedProcesslist) rows() ([]snapshot.Process, error) {
	n := len(st.ID)
	if len(st.SinceMS) != n || !optional(len(st.ExaminedRows), n) || !optional(len(st.Progress), n) ||
		!optional(len(st.NoIndexUsed), n) || !optional(len(st.OSThread), n) || !optional(len(st.MemoryBytes), n) {
		return nil, errColumns
	}
	sw := indexWidth(len(st.Strings))
	if len(st.Activities)%(3*sw) != 0 {
		return nil, errColumns
	}
	nacts := len(st.Activities) / (3 * sw)
	triples, err := decodeIndexes(st.Activities, 3*nacts, sw, len(st.Strings))
	if err != nil {
		return nil, err
	}
	var cols [4][]int
	for c, src := range [4]string{st.User, st.Host, st.DB, st.Activity} {
		w, limit := sw, len(st.Strings)
		if c == 3 {
			w, limit = indexWidth(nacts), nacts
		}
		if cols[c], err = decodeIndexes(src, n, w, limit); err != nil {
			return nil, err
		}
	}
	out := make([]snapshot.Process, n)
	for i := range out {
		p := &out[i]
		p.ID, p.TimeMS = st.ID[i], st.BaseMS-st.SinceMS[i]
		p.User, p.Host, p.DB = st.Strings[cols[0][i]], st.Strings[cols[1][i]], st.Strings[cols[2][i]]
		a := 3 * cols[3][i]
		p.Command, p.State, p.Info = st.Strings[triples[a]], st.Strings[triples[a+1]], st.Strings[triples[a+2]]
		if st.ExaminedRows != nil {
			p.ExaminedRows = st.ExaminedRows[i]
		}
		if st.Progress != nil {
			p.Progress = st.Progress[i]
		}
		if st.NoIndexUsed != nil {
			p.NoIndexUsed = st.NoIndexUsed[i]
		}
		if st.OSThread != nil {
			p.OSThread = st.OSThread[i]
		}
		if st.MemoryBytes != nil {
			p.MemoryBytes = st.MemoryBytes[i]
		}
	}
	return out, nil
}

// optional reports whether a column of length got may accompany n threads:
// all of them, or omitted.
func optional(got, n int) bool { return got == 0 || got == n }
