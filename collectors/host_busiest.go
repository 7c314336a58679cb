package collectors

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// busiestIdleMax is the host's idle share (%) under which the busiest
// processes are read: HOST-02's 80 % busy (PMM-A node_high_cpu_load), the
// level under which cpu_saturation may stand. An idle host costs nothing:
// reading every /proc/<pid>/stat (200 processes here, ~1 ms) is done only
// while the CPUs are busy, when the question "which process?" is asked.
const busiestIdleMax = 20

// busiestTop is how many processes are kept, and busiestMinCPUs the least
// CPU (CPU seconds a second) a process must have used to be named: a
// daemon's 0.01 says nothing about who keeps the CPUs busy.
const (
	busiestTop     = 5
	busiestMinCPUs = 0.05
)

// busiestProcs reads which processes other than mysqld used the CPU over
// the last interval, from two reads of every /proc/<pid>/stat: the first
// busy tick only takes the baseline. mysqld's own pid is skipped: its
// figure is Host.Mysqld, and its stat walks every one of its threads.
type busiestProcs struct {
	root    string // procfs; "/proc" when empty
	prevCPU snapshot.CPUTimes
	prevAt  time.Time
	prev    map[int]procUse // the previous read, by pid; nil after an idle tick
	buf     []byte
}

type procUse struct {
	ticks, start uint64
	name         string
}

// fill sets s.Host.Busiest when the host was busy over the last interval.
func (b *busiestProcs) fill(s *snapshot.Snapshot) {
	h := s.Host
	if h == nil || h.Remote {
		b.prev = nil
		return
	}
	prevCPU, prevAt := b.prevCPU, b.prevAt
	b.prevCPU, b.prevAt = h.CPU, s.Time
	total := h.CPU.Total() - prevCPU.Total()
	if prevAt.IsZero() || total <= 0 || 100*(h.CPU.Idle-prevCPU.Idle)/total >= busiestIdleMax {
		b.prev = nil
		return
	}
	skip := 0
	if h.Mysqld != nil {
		skip = h.Mysqld.PID
	}
	cur := b.read(skip)
	prev := b.prev
	b.prev = cur
	secs := s.Time.Sub(prevAt).Seconds()
	if prev == nil || secs <= 0 {
		return
	}
	var used []snapshot.ProcessUse
	for pid, c := range cur {
		p, ok := prev[pid]
		if !ok || p.start != c.start || c.ticks <= p.ticks {
			continue
		}
		cpus := float64(c.ticks-p.ticks) / userHZ / secs
		if cpus < busiestMinCPUs {
			continue
		}
		used = append(used, snapshot.ProcessUse{PID: pid, Name: c.name, CPUs: cpus})
	}
	slices.SortFunc(used, func(a, b snapshot.ProcessUse) int {
		switch {
		case a.CPUs > b.CPUs:
			return -1
		case a.CPUs < b.CPUs:
			return 1
		}
		return a.PID - b.PID
	})
	if len(used) > busiestTop {
		used = used[:busiestTop]
	}
	h.Busiest = used
}

// read takes every process's CPU ticks but skip's.
func (b *busiestProcs) read(skip int) map[int]procUse {
	root := b.root
	if root == "" {
		root = "/proc"
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	out := make(map[int]procUse, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == skip {
			continue
		}
		f, err := os.Open(filepath.Join(root, e.Name(), "stat"))
		if err != nil {
			continue // gone since the listing, or not ours to read
		}
		b.buf = slices.Grow(b.buf[:0], 1024)[:1024]
		n, _ := f.Read(b.buf)
		f.Close()
		st, err := parseTaskStat(b.buf[:n])
		if err != nil {
			continue
		}
		out[pid] = procUse{ticks: st.cpuTicks(), start: st.startTime, name: string(st.comm)}
	}
	return out
}
