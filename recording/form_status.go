package recording

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// storedStatus is SHOW GLOBAL STATUS as version 3 stores it (chain.st,
// form_chain.go). The ~50 counters that a busy server moves every second
// cost about 4 B each as JSON strings (each change breaks the previous
// frame's match twice); here every whole-number value is a difference from
// the previous frame's value of the same name, the names in a column that
// the writer orders so that the counters that move sit together, and their
// differences make one run of new bytes instead of fifty.
//
// Names lists the variables whose value is a whole number (decimal digits,
// no sign or leading zero, below 2^64), in the writer's order; with Rel it is
// omitted when it is the previous frame's. Values holds
// one writeSigned code per name: with Rel, the value minus the previous
// frame's value of that name (0 when it had none, or not a whole number);
// without it, the value. Other holds every other variable as is.
type storedStatus struct {
	Names  *nameColumn       `json:"names,omitempty"`
	Rel    bool              `json:"rel,omitempty"`
	Values string            `json:"values"`
	Other  map[string]string `json:"other,omitempty"`
}

// statusForm remembers the last stored frame's status and the order of the
// names column.
type statusForm struct {
	prev   map[string]string
	order  []string
	in     map[string]bool // order's names
	ranked bool            // order puts the names that moved first
}

// wholeNumber parses a value written as a plain decimal uint64.
func wholeNumber(s string) (uint64, bool) {
	if s == "" || len(s) > 20 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

func (f *statusForm) encode(status map[string]string, key bool) *storedStatus {
	base := f.prev
	if key {
		base = nil
	}
	st := &storedStatus{Rel: base != nil}
	numeric := 0
	same := true
	for k, v := range status {
		if _, ok := wholeNumber(v); ok {
			numeric++
			same = same && f.in[k]
		} else {
			if st.Other == nil {
				st.Other = map[string]string{}
			}
			st.Other[k] = v
		}
	}
	if key || !same || numeric != len(f.order) || (!f.ranked && f.prev != nil) {
		f.rank(status)
		st.Names = &nameColumn{list: f.order}
	} else if !st.Rel {
		st.Names = &nameColumn{list: f.order}
	}
	var b strings.Builder
	for _, k := range f.order {
		v, _ := wholeNumber(status[k])
		p, _ := wholeNumber(base[k])
		writeSigned(&b, v-p)
	}
	st.Values = b.String()
	f.prev = status
	return st
}

// rank orders the whole-number names: those whose value differs from the
// previous frame's first, then the rest, each part by name.
func (f *statusForm) rank(status map[string]string) {
	var moved, still []string
	for k, v := range status {
		if _, ok := wholeNumber(v); !ok {
			continue
		}
		if f.prev != nil && f.prev[k] != v {
			moved = append(moved, k)
		} else {
			still = append(still, k)
		}
	}
	slices.Sort(moved)
	slices.Sort(still)
	f.order = append(moved, still...)
	f.in = make(map[string]bool, len(f.order))
	for _, k := range f.order {
		f.in[k] = true
	}
	f.ranked = f.prev != nil
}

func (f *statusForm) forget() { f.prev = nil }

var errStatusColumns = errors.New("status columns damaged")

// nameColumn is storedStatus.Names. Decoding keeps its JSON undecoded: the
// column is the same from frame to frame (~14 KB of names), and a reader
// walking a keyframe group parses it only when it differs from the
// previous frame's.
type nameColumn struct {
	list []string
	raw  []byte
}

// MarshalJSON writes an empty column as [], never null: encoding/json leaves
// a pointer field nil on null without asking UnmarshalJSON, and a frame
// whose status has no whole number would then read as one without names.
func (c nameColumn) MarshalJSON() ([]byte, error) {
	if len(c.list) == 0 {
		return []byte("[]"), nil
	}
	return json.Marshal(c.list)
}

func (c *nameColumn) UnmarshalJSON(b []byte) error {
	c.raw = append(c.raw[:0], b...)
	return nil
}

// statusState is a decoded status: the whole numbers by name column, the
// rest as they are. It is the base of the next frame's differences.
type statusState struct {
	names    []string
	namesRaw []byte
	index    map[string]int // names' positions, made when a next frame's names differ
	values   []uint64
	other    map[string]string
}

func (s *statusState) value(k string) uint64 {
	if s.index == nil {
		s.index = make(map[string]int, len(s.names))
		for i, n := range s.names {
			s.index[n] = i
		}
	}
	if i, ok := s.index[k]; ok {
		return s.values[i]
	}
	return 0
}

// toMap is the status as the snapshot holds it.
func (s *statusState) toMap() map[string]string {
	out := make(map[string]string, len(s.names)+len(s.other))
	for k, v := range s.other {
		out[k] = v
	}
	for i, k := range s.names {
		out[k] = strconv.FormatUint(s.values[i], 10)
	}
	return out
}

// status decodes the stored status; prev is the previous frame's (nil when
// it had none).
func (st *storedStatus) status(prev *statusState) (*statusState, error) {
	if st.Rel && prev == nil {
		return nil, errors.New("status relative to a frame without status")
	}
	out := &statusState{other: st.Other}
	sameNames := false
	switch {
	case st.Names == nil:
		if !st.Rel {
			return nil, errStatusColumns
		}
		sameNames = true
		out.names, out.namesRaw = prev.names, prev.namesRaw
	case st.Names.raw == nil:
		out.names = st.Names.list // encoded in this process
	case prev != nil && bytes.Equal(st.Names.raw, prev.namesRaw):
		sameNames = true
		out.names, out.namesRaw = prev.names, prev.namesRaw
	default:
		out.namesRaw = st.Names.raw
		if err := json.Unmarshal(st.Names.raw, &out.names); err != nil {
			return nil, errStatusColumns
		}
		seen := make(map[string]bool, len(out.names))
		for _, k := range out.names {
			if _, dup := st.Other[k]; dup || seen[k] {
				return nil, errStatusColumns
			}
			seen[k] = true
		}
	}
	if sameNames {
		out.index = prev.index
	}
	vals, err := readSigned(st.Values, len(out.names))
	if err != nil {
		return nil, errStatusColumns
	}
	if st.Rel {
		for i := range vals {
			if sameNames {
				vals[i] += prev.values[i]
			} else {
				vals[i] += prev.value(out.names[i])
			}
		}
	}
	out.values = vals
	return out, nil
}
