package importers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// Where a capture's top iterations go, whoever dated them: pt-stalk's -top
// by its clock on the collection's day, a shell loop's by the stamps of its
// lines, a raw `top -b` beside the loops by its clock on the loops' day.

// placeTop puts each top iteration on the hosts of the seconds from its own
// time to the next iteration's: the load averages and mysqld's resident size
// as top saw them, mysqld's CPU time drawn between the two iterations' TIME+
// (its rate in each second is then top's over the interval), and the other
// processes' CPU as the next iteration measured it. Top's %CPU is an average
// over the delay before the iteration that prints it: placed on the seconds
// after it, a CPU hog showed a whole delay late (3 s in pt-stalk). It
// returns the note saying so.
func (tl *timeline) placeTop(name string, samples []topSample, at []time.Time, pid int) string {
	tl.hostLoads = true
	others := make([][]snapshot.ProcessUse, len(samples))
	servers := make([]*topProc, len(samples))
	placed := map[*snapshot.Host]bool{}
	for i, s := range samples {
		others[i], servers[i] = topSplit(s, pid)
	}
	for i, s := range samples {
		from := at[i].Unix()
		to := from + 1
		if i+1 < len(samples) {
			to = max(to, at[i+1].Unix())
		}
		to = min(to, from+maxTopSpan)
		server, measured := servers[i], others[min(i+1, len(samples)-1)]
		for sec := from; sec < to; sec++ {
			h := tl.hosts[sec]
			if h == nil {
				if sec != from {
					continue
				}
				h = tl.topHost(sec, placed)
			}
			placed[h] = true
			h.Busiest = measured
			if s.hasLoad {
				h.Load1, h.Load5, h.Load15 = s.load[0], s.load[1], s.load[2]
			}
			if h.MemTotal == 0 {
				h.MemTotal, h.MemFree, h.MemAvailable = s.memTotal, s.memFree, s.memAvailable
			}
			if server != nil {
				h.Mysqld = topMysqld(samples, at, i, sec, pid, server)
			}
		}
	}
	for _, h := range tl.hosts {
		h.LoadUnknown = h.Load1 == 0 && h.Load5 == 0 && h.Load15 == 0
	}
	what := "other processes' CPU"
	if pid != 0 {
		what += fmt.Sprintf(", mysqld's (pid %d) CPU and resident size", pid)
	}
	return fmt.Sprintf("%s: %d iterations of top from %s: %s and the load averages, each on the seconds it measured",
		name, len(samples), at[0].Format(time.TimeOnly), what)
}

// topHost is the host an iteration starting in second sec opens: a
// neighbour's when the parts' stamps straddle a second boundary, unless an
// iteration already holds it (where top alone makes the hosts, one a second,
// each second its own), else a new one.
func (tl *timeline) topHost(sec int64, placed map[*snapshot.Host]bool) *snapshot.Host {
	if h := tl.hostAround(sec); h != nil && !placed[h] {
		return h
	}
	h := &snapshot.Host{}
	tl.hosts[sec] = h
	return h
}

// hostNear is the host of second sec, or of the second before or after
// when the parts' stamps straddle a second boundary; a new one when none.
func (tl *timeline) hostNear(sec int64) *snapshot.Host {
	if h := tl.hostAround(sec); h != nil {
		return h
	}
	h := &snapshot.Host{}
	tl.hosts[sec] = h
	return h
}

// hostAround is hostNear without making one: nil when none is there.
func (tl *timeline) hostAround(sec int64) *snapshot.Host {
	for _, s := range []int64{sec, sec - 1, sec + 1} {
		if h := tl.hosts[s]; h != nil {
			return h
		}
	}
	return nil
}

// maxTopSpan bounds the seconds one iteration stands for: top's delay is a
// few seconds, and a longer gap (a loop stopped, a clock that jumped) is
// not measured by the next iteration, nor worth a host per second.
const maxTopSpan = 60

// topTimes dates each iteration's clock on the collection's day, past
// midnight when the clock goes back.
func topTimes(samples []topSample, base time.Time) []time.Time {
	day := time.Date(base.Year(), base.Month(), base.Day(), 0, 0, 0, 0, base.Location())
	if samples[0].clock < 6*time.Hour && base.Sub(day) > 18*time.Hour {
		day = day.AddDate(0, 0, 1) // started just before midnight, top's first clock after it
	}
	out := make([]time.Time, len(samples))
	for i, s := range samples {
		t := day.Add(s.clock)
		if i > 0 && t.Before(out[i-1]) {
			day = day.AddDate(0, 0, 1)
			t = day.Add(s.clock)
		}
		out[i] = t
	}
	return out
}

// topSplit ranks the processes other than the server, and finds the
// server's row.
func topSplit(s topSample, pid int) (others []snapshot.ProcessUse, server *topProc) {
	for i, p := range s.procs {
		if p.pid == pid && pid != 0 {
			server = &s.procs[i]
			continue
		}
		others = append(others, snapshot.ProcessUse{PID: p.pid, Name: p.name, CPUs: p.cpus})
	}
	return infer.RankBusiest(others), server
}

// topMysqld is the server's figures for second sec within iteration i: its
// CPU time drawn linearly towards the next iteration's, so each second's
// rate is top's over the interval. After the last iteration, or when
// TIME+ is unreadable, only the resident size is known, which gives no CPU
// rate, so none is set.
func topMysqld(samples []topSample, at []time.Time, i int, sec int64, pid int, p *topProc) *snapshot.ProcessCPU {
	m := &snapshot.ProcessCPU{PID: pid, RSSBytes: p.rss}
	if i+1 >= len(samples) || p.cpuTime < 0 {
		if sec == at[i].Unix() && p.cpuTime >= 0 {
			m.UserSeconds = p.cpuTime
			return m
		}
		return nil
	}
	_, next := topSplit(samples[i+1], pid)
	if next == nil || next.cpuTime < p.cpuTime {
		return nil
	}
	span := at[i+1].Sub(at[i]).Seconds()
	frac := 0.0
	if span > 0 {
		frac = float64(sec-at[i].Unix()) / span
	}
	m.UserSeconds = p.cpuTime + frac*(next.cpuTime-p.cpuTime)
	return m
}
