package recording

import (
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
// no sign or leading zero, below 2^64), in the writer's order. Values holds
// one writeSigned code per name: with Rel, the value minus the previous
// frame's value of that name (0 when it had none, or not a whole number);
// without it, the value. Other holds every other variable as is.
type storedStatus struct {
	Names  []string          `json:"names"`
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
	}
	st.Names = f.order
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

// status rebuilds the map; prev is the previous frame's status.
func (st *storedStatus) status(prev map[string]string) (map[string]string, error) {
	if st.Rel && prev == nil {
		return nil, errors.New("status relative to a frame without status")
	}
	vals, err := readSigned(st.Values, len(st.Names))
	if err != nil {
		return nil, errStatusColumns
	}
	out := make(map[string]string, len(st.Names)+len(st.Other))
	for k, v := range st.Other {
		out[k] = v
	}
	for i, k := range st.Names {
		if _, dup := out[k]; dup {
			return nil, errStatusColumns
		}
		var p uint64
		if st.Rel {
			p, _ = wholeNumber(prev[k])
		}
		out[k] = strconv.FormatUint(p+vals[i], 10)
	}
	return out, nil
}
