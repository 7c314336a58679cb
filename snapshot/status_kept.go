package snapshot

import "slices"

// KeptStatus is the few status values an older window frame keeps for the
// rules once the pipeline has thinned it (Snapshot.Kept), as values against
// a list of names the thinned frames of one server share. As a map of its
// own, each frame's 17 values cost some 1.2 KB, and a full window holds 300
// such frames per server.
type KeptStatus struct {
	names  *keptNames
	values []string
}

// keptNames are the names of a KeptStatus's values, in order.
type keptNames struct{ names []string }

// Lookup returns the value kept for name.
func (k *KeptStatus) Lookup(name string) (string, bool) {
	for i, n := range k.names.names {
		if n == name {
			return k.values[i], true
		}
	}
	return "", false
}

// Len is how many values are kept; 0 for nil.
func (k *KeptStatus) Len() int {
	if k == nil {
		return 0
	}
	return len(k.values)
}

// StatusKeeper makes the KeptStatus of one server's thinned frames: the
// values of the names it keeps that a frame has. Frames present the same
// names tick after tick, so they share one list until that changes.
type StatusKeeper struct {
	want []string
	last *keptNames
	// present and values are scratch, copied out at their exact size.
	present, values []string
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
			k.values = append(k.values, v)
		}
	}
	if k.last == nil || !slices.Equal(k.last.names, k.present) {
		k.last = &keptNames{names: slices.Clone(k.present)}
	}
	return &KeptStatus{names: k.last, values: slices.Clone(k.values)}
}
