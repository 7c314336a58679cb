package snapshot

import (
	"encoding/binary"
	"slices"
)

// KeptStatus is the few status values an older window frame keeps for the
// rules once the pipeline has thinned it (Snapshot.Kept), as values against
// a list of names the thinned frames of one server share. As a map of its
// own, each frame's 16 values cost some 1.2 KB, and a full window holds 300
// such frames per server.
type KeptStatus struct {
	names *keptNames
	// values are the values in the order of names, each after its length
	// as a uvarint: one allocation of some 100 bytes a frame, where a slice
	// of strings took 288 and held a string of its own per changed counter.
	values string
}

// keptNames are the names of a KeptStatus's values, in order.
type keptNames struct{ names []string }

// Lookup returns the value kept for name.
func (k *KeptStatus) Lookup(name string) (string, bool) {
	for i, n := range k.names.names {
		if n == name {
			return k.value(i), true
		}
	}
	return "", false
}

// value is the i-th value, reached by skipping the i before it.
func (k *KeptStatus) value(i int) string {
	rest := k.values
	for {
		n, w := uvarintOf(rest)
		if i == 0 {
			return rest[w : w+n]
		}
		rest, i = rest[w+n:], i-1
	}
}

// uvarintOf reads the uvarint s starts with, and its width.
func uvarintOf(s string) (n, width int) {
	for shift := 0; ; shift += 7 {
		b := s[width]
		n |= int(b&0x7f) << shift
		width++
		if b < 0x80 {
			return n, width
		}
	}
}

// Len is how many values are kept; 0 for nil.
func (k *KeptStatus) Len() int {
	if k == nil {
		return 0
	}
	return len(k.names.names)
}

// StatusKeeper makes the KeptStatus of one server's thinned frames: the
// values of the names it keeps that a frame has. Frames present the same
// names tick after tick, so they share one list until that changes.
type StatusKeeper struct {
	want []string
	last *keptNames
	// present and values are scratch, copied out at their exact size.
	present []string
	values  []byte
}

// NewStatusKeeper keeps names.
func NewStatusKeeper(names []string) *StatusKeeper {
	return &StatusKeeper{want: names}
}

// Keep returns what s has of the kept names, from its status map or what
// it kept already; nil when s has no status at all.
func (k *StatusKeeper) Keep(s *Snapshot) *KeptStatus {
	if !s.HasStatus() {
		return nil
	}
	k.present, k.values = k.present[:0], k.values[:0]
	for _, name := range k.want {
		if v, ok := s.StatusValue(name); ok {
			k.present = append(k.present, name)
			k.values = append(binary.AppendUvarint(k.values, uint64(len(v))), v...)
		}
	}
	if k.last == nil || !slices.Equal(k.last.names, k.present) {
		k.last = &keptNames{names: slices.Clone(k.present)}
	}
	return &KeptStatus{names: k.last, values: string(k.values)}
}
