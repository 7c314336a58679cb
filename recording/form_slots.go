package recording

import "slices"

// slotTable gives values stable positions from one frame to the next, so the
// index a frame stores for an unchanged value is the bytes the previous frame
// stored. A value keeps its slot while frames use it; a new value takes a
// slot the previous frame had but this one does not use, else one at the
// end. The table is thus as long as the most values one frame has needed
// since it was last reset (at a keyframe).
type slotTable[K comparable] struct {
	items []K
	slot  map[K]int
	used  []bool // place's scratch, kept so a frame allocates none
}

func (t *slotTable[K]) reset() { t.items, t.slot = nil, map[K]int{} }

// place gives every value in vals a slot and writes it to slots[i]. Slots
// of values not in vals may be taken over; their old values stay in items
// until then.
func (t *slotTable[K]) place(vals []K, slots []int) {
	if t.slot == nil {
		t.reset()
	}
	used := t.scratch()
	var fresh []K
	for j, v := range vals {
		i, ok := t.slot[v]
		switch {
		case !ok:
			i = -1
			t.slot[v] = i // placed below, once
			fresh = append(fresh, v)
		case i >= 0:
			used[i] = true
		}
		slots[j] = i
	}
	if len(fresh) == 0 {
		return
	}
	free := 0
	for _, v := range fresh {
		for free < len(used) && used[free] {
			free++
		}
		if free == len(used) {
			t.items, used = append(t.items, v), append(used, true)
			t.used = used
		} else {
			delete(t.slot, t.items[free])
			t.items[free], used[free] = v, true
		}
		t.slot[v] = free
	}
	for j, i := range slots {
		if i < 0 {
			slots[j] = t.slot[vals[j]]
		}
	}
}

// scratch returns t.used cleared, one entry per item.
func (t *slotTable[K]) scratch() []bool {
	t.used = slices.Grow(t.used[:0], len(t.items))[:len(t.items)]
	clear(t.used)
	return t.used
}
