package collectors

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// busiestIdleMax is the host's idle share (%) under which the busiest
// processes are read every tick: HOST-02's 80 % busy (PMM-A
// node_high_cpu_load), the level under which cpu_saturation may stand, and
// the question "which process?" is asked. Reading every /proc/<pid>/stat
// costs about 1 ms for 200 processes, so a host that is not busy is read
// only every busiestEvery.
const busiestIdleMax = 20

// busiestEvery is how often the processes are read while the host is not
// busy: a host's normal then holds which processes use its CPUs, at a
// fifth of the every-tick cost (measured: BenchmarkBusiestRead).
const busiestEvery = 5 * time.Second

// busiestProcs reads which processes other than mysqld used the CPU over
// the last interval, from two reads of every /proc/<pid>/stat: every tick
// while the host is busy, every busiestEvery otherwise, the ticks between
// carrying the last figures. mysqld's own pid is skipped: its figure is
// Host.Mysqld, and its stat walks every one of its threads.
type busiestProcs struct {
	root    string // procfs; "/proc" when empty
	prevCPU snapshot.CPUTimes
	prevAt  time.Time
	prev    map[int]procUse // the previous read, by pid; nil before the first
	readAt  time.Time       // when prev was read
	last    []snapshot.ProcessUse
	buf     []byte
}

type procUse struct {
	ticks, start uint64
	name         string
}

// fill sets s.Host.Busiest: read now when the host was busy over the last
// interval or busiestEvery has passed, else carried from the last read.
func (b *busiestProcs) fill(s *snapshot.Snapshot) {
	h := s.Host
	if h == nil || h.Remote {
		b.prev, b.last = nil, nil
		return
	}
	prevCPU, prevAt := b.prevCPU, b.prevAt
	b.prevCPU, b.prevAt = h.CPU, s.Time
	total := h.CPU.Total() - prevCPU.Total()
	busy := !prevAt.IsZero() && total > 0 && 100*(h.CPU.Idle-prevCPU.Idle)/total < busiestIdleMax
	if !busy && b.prev != nil && s.Time.Sub(b.readAt) < busiestEvery && !s.Time.Before(b.readAt) {
		h.Busiest = b.last
		return
	}
	skip := 0
	if h.Mysqld != nil {
		skip = h.Mysqld.PID
	}
	cur := b.read(skip)
	prev, readAt := b.prev, b.readAt
	b.prev, b.readAt, b.last = cur, s.Time, nil
	secs := s.Time.Sub(readAt).Seconds()
	if prev == nil || secs <= 0 {
		return
	}
	b.last = busiestUsed(prev, cur, secs)
	h.Busiest = b.last
}

// busiestUsed is the processes' CPU between two reads secs apart, busiest first.
func busiestUsed(prev, cur map[int]procUse, secs float64) []snapshot.ProcessUse {
	var used []snapshot.ProcessUse
	for pid, c := range cur {
		p, ok := prev[pid]
		if !ok || p.start != c.start || c.ticks <= p.ticks {
			continue
		}
		used = append(used, snapshot.ProcessUse{PID: pid, Name: c.name, CPUs: float64(c.ticks-p.ticks) / userHZ / secs})
	}
	return infer.RankBusiest(used)
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
