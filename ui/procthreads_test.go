package ui

import (
	"slices"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// threadFrame is the incident with mysqld's threads read twice, a second
// apart: 4001 burns 90 % of a core, 5121 reads 8 MiB/s, 5190 is read for
// the first time, 5188 is idle and was not read; purge takes 5 %.
func threadFrame() *snapshot.Frame {
	f := incidentFrame()
	prev, cur := *f.Snapshot, *f.Snapshot
	prev.Time = cur.Time.Add(-time.Second)
	procs := slices.Clone(cur.Processlist)
	for i := range procs {
		procs[i].OSThread = 100 + procs[i].ID
		if procs[i].ID == 4001 {
			procs[i].MemoryBytes = 3 << 20
		}
	}
	cur.Processlist, prev.Processlist = procs, procs
	task := func(id int64, cpu, read uint64) snapshot.TaskCounters {
		return snapshot.TaskCounters{TID: 100 + id, Conn: id, CPUTicks: cpu, ReadBytes: read}
	}
	purge := func(cpu uint64) snapshot.TaskCounters {
		return snapshot.TaskCounters{TID: 7, Name: "purge", CPUTicks: cpu}
	}
	prev.Threads = &snapshot.Threads{PID: 9, ClockTicks: 100, Process: snapshot.TaskCounters{CPUTicks: 1000},
		Tasks: []snapshot.TaskCounters{task(4001, 500, 0), task(5121, 10, 1<<20), purge(40)}}
	cur.Threads = &snapshot.Threads{PID: 9, ClockTicks: 100, Process: snapshot.TaskCounters{CPUTicks: 1100, ReadBytes: 9 << 20},
		Tasks: []snapshot.TaskCounters{task(4001, 590, 0), task(5121, 12, 9<<20), task(5190, 3, 0), purge(45)}}
	f.Snapshot, f.Rates = &cur, snapshot.Delta(&prev, &cur)
	return f
}

func TestThreadColumnsShowEachConnection(t *testing.T) {
	d := New(Options{})
	d.Update(threadFrame())
	screen := screenOf(d, 200, 50)
	mustContain(t, screen, "CPU%", "Read/s", "Write/s", "Mem", "mysqld 100%",
		"mysqld 100% = conns 92% + purge 5.0% + other 3.0%", "mysqld I/O read 9M/s")
	l := d.list
	cell := func(id int64, col int) string { return l.threads.threadCellText(&l.all[indexOfID(l, id)], col) }
	for _, c := range []struct {
		id   int64
		col  int
		want string
	}{
		{4001, colCPU, "90"}, {4001, colMem, "3M"}, {5121, colRead, "8M"}, {5121, colCPU, "2"},
		{5190, colCPU, "…"}, {5188, colCPU, "0"}, {5188, colMem, "–"},
	} {
		if got := cell(c.id, c.col); got != c.want {
			t.Errorf("thread %d column %s: %q, want %q", c.id, procColumns[c.col].title, got, c.want)
		}
	}
	// '<' from Time (the default) wraps past Id to the thread columns.
	for range 6 {
		press(d, '<')
	}
	if l.sortCol != colMem {
		t.Fatalf("sort column %s", procColumns[l.sortCol].title)
	}
	press(d, '<')
	press(d, '<')
	press(d, '<') // CPU%, descending
	if got := shownIDs(d); got[0] != 4001 || got[1] != 5121 {
		t.Errorf("by CPU%% desc: %v", got)
	}
	press(d, 'c')
	mustNotContain(t, screenOf(d, 200, 50), "Read/s")
	press(d, 'c')
	mustContain(t, screenOf(d, 200, 50), "Read/s")
}

func indexOfID(l *procList, id int64) int {
	for i := range l.all {
		if l.all[i].ID == id {
			return i
		}
	}
	return -1
}

// TestThreadColumnsAt80x24 keeps CPU% on the smallest terminal, beside the
// query, and the header's mysqld figure.
func TestThreadColumnsAt80x24(t *testing.T) {
	d := New(Options{})
	d.Update(threadFrame())
	screen := screenOf(d, 80, 24)
	mustContain(t, screen, "CPU%")
	mustNotContain(t, screen, "Write/s")
}

func TestThreadColumnsMissingOrNA(t *testing.T) {
	// An imported capture: no per-thread source, the columns are missing.
	d := New(Options{})
	d.Update(incidentFrame())
	p := &d.list.all[0]
	if got := d.list.threads.threadCellText(p, colCPU); got != "–" {
		t.Errorf("imported: %q", got)
	}
	mustNotContain(t, screenOf(d, 200, 50), "mysqld n/a")
	// A remote server: n/a, and the header says why once.
	f := incidentFrame()
	f.Snapshot.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{
		snapshot.CollectorThreads: {Unavailable: "server is on another machine"}}
	d.Update(f)
	if got := d.list.threads.threadCellText(&d.list.all[0], colRead); got != "n/a" {
		t.Errorf("remote: %q", got)
	}
	mustContain(t, screenOf(d, 200, 50), "mysqld n/a: server is on another machine")
}
