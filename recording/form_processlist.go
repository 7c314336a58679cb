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
}

// activity is what a thread is doing: its command, state and statement.
type activity struct{ command, state, info string }

func activityOf(p *snapshot.Process) activity { return activity{p.Command, p.State, p.Info} }

// processlistForm remembers what the previous frame stored.
type processlistForm struct {
	strings    slotTable[string]
	activities slotTable[activity]
	baseMS     int64
	prev       map[int64]prevThread
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
	}
	n := len(procs)
	strs := make([]string, 0, 6*n)
	acts := make([]activity, n)
	for i := range procs {
		p := &procs[i]
		strs = append(strs, p.User, p.Host, p.DB, p.Command, p.State, p.Info)
		acts[i] = activityOf(p)
	}
	f.strings.place(strs)
	f.activities.place(acts)
	f.baseMS = f.nextBase(procs)

	st := &storedProcesslist{Strings: append([]string(nil), f.strings.items...), BaseMS: f.baseMS,
		ID: make([]int64, n), SinceMS: make([]int64, n)}
	sw := indexWidth(len(st.Strings))
	triples := make([]int, 0, 3*len(f.activities.items))
	for _, a := range f.activities.items {
		triples = append(triples, f.strings.index(a.command), f.strings.index(a.state), f.strings.index(a.info))
	}
	st.Activities = encodeIndexes(triples, sw)
	var cols [4][]int // user, host, db, activity
	for c := range cols {
		cols[c] = make([]int, n)
	}
	var examined, progress, noIndex bool
	prev := make(map[int64]prevThread, n)
	for i := range procs {
		p := &procs[i]
		st.ID[i] = p.ID
		cols[0][i], cols[1][i], cols[2][i] = f.strings.index(p.User), f.strings.index(p.Host), f.strings.index(p.DB)
		cols[3][i] = f.activities.index(acts[i])
		st.SinceMS[i] = f.baseMS - p.TimeMS
		examined = examined || p.ExaminedRows != 0
		progress = progress || p.Progress != 0
		noIndex = noIndex || p.NoIndexUsed
		prev[p.ID] = prevThread{p.TimeMS, acts[i]}
	}
	f.prev = prev
	st.User, st.Host, st.DB = encodeIndexes(cols[0], sw), encodeIndexes(cols[1], sw), encodeIndexes(cols[2], sw)
	st.Activity = encodeIndexes(cols[3], indexWidth(len(f.activities.items)))
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
	return st
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
		!optional(len(st.NoIndexUsed), n) {
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
	}
	return out, nil
}

// optional reports whether a column of length got may accompany n threads:
// all of them, or omitted.
func optional(got, n int) bool { return got == 0 || got == n }
