package snapshot

import (
	"cmp"
	"slices"
)

// threadRates pairs the threads of two samples by TID. A thread read in only
// one of them has no rate: it was idle, new, or gone. A different mysqld
// (restart) gives no rates at all, never a negative or huge one.
func threadRates(prev, cur *Threads, secs float64) *ThreadRates {
	if prev == nil || cur == nil || prev.PID != cur.PID || cur.ClockTicks <= 0 {
		return nil
	}
	proc, ok := taskRate(prev.Process, cur.Process, cur.ClockTicks, secs)
	if !ok {
		return nil
	}
	t := &ThreadRates{Process: proc, NoIO: cur.NoIO != "" || prev.NoIO != ""}
	rates := pairRates(prev.Tasks, cur.Tasks, taskKey, func(p, c TaskCounters) (TaskRate, bool) {
		if p.Conn != c.Conn {
			return TaskRate{}, false // the thread now serves another connection
		}
		return taskRate(p, c, cur.ClockTicks, secs)
	})
	groups := map[string]*TaskRate{}
	var counted TaskRate
	for _, r := range rates {
		counted.add(r)
		if r.Conn != 0 {
			t.Conns = append(t.Conns, r)
			t.ConnCPU += r.CPU
			continue
		}
		name := r.Name
		if name == "" {
			name = "other"
		}
		g := groups[name]
		if g == nil {
			g = &TaskRate{Name: name}
			groups[name] = g
		}
		g.add(r)
	}
	if rest := otherThreads(proc, counted); rest.CPU > 0 || rest.ReadBps > 0 || rest.WriteBps > 0 {
		g := groups["other"]
		if g == nil {
			groups["other"] = &rest
		} else {
			g.add(rest)
		}
	}
	for _, g := range groups {
		t.Background = append(t.Background, *g)
	}
	byCPU := func(a, b TaskRate) int {
		return cmp.Or(cmp.Compare(b.CPU, a.CPU), cmp.Compare(a.Conn, b.Conn), cmp.Compare(a.Name, b.Name))
	}
	slices.SortFunc(t.Conns, byCPU)
	slices.SortFunc(t.Background, byCPU)
	t.byConn = make(map[int64]int, len(t.Conns))
	for i, r := range t.Conns {
		t.byConn[r.Conn] = i
	}
	return t
}

func taskKey(c TaskCounters) int64 { return c.TID }

// taskRate turns two readings of one thread into CPU % of a core and bytes/s.
func taskRate(p, c TaskCounters, hz int, secs float64) (TaskRate, bool) {
	r := TaskRate{TID: c.TID, Conn: c.Conn, Name: c.Name, Runnable: c.Runnable}
	ticks, ok1 := counterRate(p.CPUTicks, c.CPUTicks, secs)
	var ok2, ok3 bool
	r.ReadBps, ok2 = counterRate(p.ReadBytes, c.ReadBytes, secs)
	r.WriteBps, ok3 = counterRate(p.WriteBytes, c.WriteBytes, secs)
	r.CPU = ticks / float64(hz) * 100
	return r, ok1 && ok2 && ok3
}

func (r *TaskRate) add(o TaskRate) {
	r.CPU += o.CPU
	r.ReadBps += o.ReadBps
	r.WriteBps += o.WriteBps
}

// otherThreads is what the process spent beyond the threads that were read;
// clock-tick rounding can make the sum of threads exceed the process by a
// tick, which is not negative work.
func otherThreads(proc, counted TaskRate) TaskRate {
	return TaskRate{Name: "other", CPU: max(proc.CPU-counted.CPU, 0),
		ReadBps: max(proc.ReadBps-counted.ReadBps, 0), WriteBps: max(proc.WriteBps-counted.WriteBps, 0)}
}
