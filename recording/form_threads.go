package recording

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// storedThreads is mysqld's per-thread counters as version 3 stores them
// ("th", the last key of a frame), in columns: one entry per task, in the
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
	Rel  bool     `json:"rel,omitempty"`
	// CPU, RB and WB are counterDigits columns.
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
	for i, tid := range st.TID {
		b := base[tid]
		c := snapshot.TaskCounters{TID: tid, CPUTicks: b.CPUTicks + cpu[i], ReadBytes: b.ReadBytes + rb[i],
			WriteBytes: b.WriteBytes + wb[i]}
		if st.Conn != nil {
			c.Conn = st.Conn[i]
		}
		c.Name = st.Name[tid]
		t.Tasks[i] = c
	}
	return t, nil
}

// Counter digits: each value is a difference d of two uint64 counters taken
// modulo 2^64, read as a signed number. Counters only grow, and byte
// counters move in whole 4 KiB pages, so d is written in units (a tick, a
// page): d/unit in base 32, most significant digit first, with the digits
// of indexDigits: 32-63 for every digit but the last, 0-31 for the last. A
// busy connection's second is then one character per counter, up to 31
// ticks or 31 pages (124 KiB). Any other difference (negative, not whole
// pages) is written as '~', the decimal digits of d modulo 2^64, and '.';
// so every pair of counters round-trips exactly.
const pageBytes = 4096

func writeCounter(b *strings.Builder, diff uint64, unit int64) {
	d := int64(diff)
	if d < 0 || d%unit != 0 {
		b.WriteByte('~')
		b.WriteString(strconv.FormatUint(diff, 10))
		b.WriteByte('.')
		return
	}
	code := uint64(d / unit)
	var tmp [14]byte
	i := len(tmp) - 1
	tmp[i] = indexDigits[code&31]
	for code >>= 5; code > 0; code >>= 5 {
		i--
		tmp[i] = indexDigits[32+(code&31)]
	}
	b.Write(tmp[i:])
}

// readCounters decodes n differences written by writeCounter.
func readCounters(s string, n int, unit uint64) ([]uint64, error) {
	out := make([]uint64, 0, n)
	for i := 0; i < len(s); {
		if s[i] == '~' {
			end := strings.IndexByte(s[i:], '.')
			if end < 2 {
				return nil, errThreadColumns
			}
			v, err := strconv.ParseUint(s[i+1:i+end], 10, 64)
			if err != nil {
				return nil, errThreadColumns
			}
			out = append(out, v)
			i += end + 1
			continue
		}
		var code uint64
		for {
			if i >= len(s) || code >= 1<<59 {
				return nil, errThreadColumns
			}
			x := digitValue[s[i]]
			i++
			if x < 0 {
				return nil, errThreadColumns
			}
			code = code<<5 | uint64(x&31)
			if x < 32 {
				break
			}
		}
		if code > math.MaxInt64/unit {
			return nil, errThreadColumns // never written: it would have been spelt out
		}
		out = append(out, code*unit)
	}
	if len(out) != n {
		return nil, errThreadColumns
	}
	return out, nil
}

// threadsKey starts the stored threads, the last key of a version 3 frame.
var threadsKey = []byte(`,"th":`)

// frameThreads decodes only the threads of a stored frame, without parsing
// the rest: a reader walking a keyframe group needs each frame's counters
// as the base of the next. It returns nil for a frame without them.
func frameThreads(raw []byte, prev *snapshot.Threads) (*snapshot.Threads, error) {
	i := bytes.LastIndex(raw, threadsKey)
	if i < 0 || len(raw) == 0 || raw[len(raw)-1] != '}' {
		return nil, nil
	}
	var st storedThreads
	if err := json.Unmarshal(raw[i+len(threadsKey):len(raw)-1], &st); err != nil {
		return nil, nil // "th" inside some other value: a frame without stored threads
	}
	return st.threads(prev)
}
