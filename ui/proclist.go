package ui

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// procColumn is one sortable processlist column.
type procColumn struct {
	title    string
	maxWidth int
	right    bool
	compare  func(a, b *snapshot.Process) int
}

const (
	colID = iota
	colUser
	colHost
	colDB
	colCmd
	colTime
	colState
	colExamined
	colQuery
	// The thread columns (procthreads.go) come last so the keys' order over
	// the older columns stays as it was.
	colCPU
	colRead
	colWrite
	colMem
)

var procColumns = []procColumn{
	colID:       {"Id", 0, true, func(a, b *snapshot.Process) int { return cmp.Compare(a.ID, b.ID) }},
	colUser:     {"User", 14, false, func(a, b *snapshot.Process) int { return strings.Compare(a.User, b.User) }},
	colHost:     {"Host", 18, false, func(a, b *snapshot.Process) int { return strings.Compare(a.Host, b.Host) }},
	colDB:       {"db", 14, false, func(a, b *snapshot.Process) int { return strings.Compare(a.DB, b.DB) }},
	colCmd:      {"Cmd", 8, false, func(a, b *snapshot.Process) int { return strings.Compare(a.Command, b.Command) }},
	colTime:     {"Time", 0, true, func(a, b *snapshot.Process) int { return cmp.Compare(a.TimeMS, b.TimeMS) }},
	colState:    {"State", 28, false, func(a, b *snapshot.Process) int { return strings.Compare(a.State, b.State) }},
	colExamined: {"Examined", 0, true, func(a, b *snapshot.Process) int { return cmp.Compare(a.ExaminedRows, b.ExaminedRows) }},
	colQuery:    {"Query", 0, false, func(a, b *snapshot.Process) int { return strings.Compare(a.Info, b.Info) }},
	colCPU:      {"CPU%", 0, true, nil},
	colRead:     {"Read/s", 0, true, nil},
	colWrite:    {"Write/s", 0, true, nil},
	colMem:      {"Mem", 0, true, nil},
}

// Thresholds for marking long-running statements.
const (
	slowMS     = 10_000
	verySlowMS = 60_000
)

// procList is the processlist as shown: the frame's rows, filtered and sorted.
// It indexes into the frame's slice rather than copying 5,000 rows a second.
type procList struct {
	all      []snapshot.Process
	rows     []int
	sortCol  int
	desc     bool
	hideIdle bool
	filter   procFilter
	// highlight marks the threads of the selected finding.
	highlight map[int64]bool
	// threads fills the thread columns; hideThreads drops them (the 'c' key).
	threads     threadCols
	hideThreads bool
}

// newProcList starts sorted by Time, longest first, with idle threads hidden:
// in an incident the threads doing something are the ones to read.
func newProcList() *procList { return &procList{sortCol: colTime, desc: true, hideIdle: true} }

func (l *procList) set(rows []snapshot.Process) {
	l.all = rows
	l.rebuild()
}

func (l *procList) rebuild() {
	l.rows = l.rows[:0]
	for i := range l.all {
		p := &l.all[i]
		if l.hideIdle && isIdle(p) {
			continue
		}
		if !l.filter.match(p) {
			continue
		}
		l.rows = append(l.rows, i)
	}
	compare := procColumns[l.sortCol].compare
	if isThreadCol(l.sortCol) {
		compare = l.threads.compareThreadCol(l.sortCol)
	}
	slices.SortStableFunc(l.rows, func(a, b int) int {
		c := compare(&l.all[a], &l.all[b])
		if c == 0 {
			c = cmp.Compare(l.all[a].ID, l.all[b].ID)
		}
		if l.desc {
			return -c
		}
		return c
	})
}

// row returns the i-th shown process.
func (l *procList) row(i int) *snapshot.Process {
	if i < 0 || i >= len(l.rows) {
		return nil
	}
	return &l.all[l.rows[i]]
}

// indexOf finds the shown position of thread id, or -1.
func (l *procList) indexOf(id int64) int {
	for i, r := range l.rows {
		if l.all[r].ID == id {
			return i
		}
	}
	return -1
}

func (l *procList) moveSort(delta int) {
	n := len(procColumns)
	l.sortCol = ((l.sortCol+delta)%n + n) % n
	l.rebuild()
}

func (l *procList) reverse() {
	l.desc = !l.desc
	l.rebuild()
}

func (l *procList) toggleIdle() {
	l.hideIdle = !l.hideIdle
	l.rebuild()
}

func (l *procList) setFilter(f procFilter) {
	l.filter = f
	l.rebuild()
}

// active counts threads doing something, for the panel title.
func (l *procList) active() int {
	n := 0
	for i := range l.all {
		if !isIdle(&l.all[i]) {
			n++
		}
	}
	return n
}

// isIdle is true for threads that wait for work rather than do it.
func isIdle(p *snapshot.Process) bool { return p.Command == "Sleep" || p.IsDaemon() }

// describe is the panel title: counts, sort order and filter, cut to width
// by importance.
func (l *procList) describe(width int, stale, cadence, cadenceAge string) string {
	order := "desc"
	if !l.desc {
		order = "asc"
	}
	filter := item{"filter: none", 2}
	if !l.filter.empty() {
		filter = item{"filter: " + safeLine(l.filter.raw, 60), 8}
	}
	idle := item{"", 0}
	if l.hideIdle {
		idle = item{"idle hidden", 4}
	}
	items := []item{
		{"Processlist", 9},
		{commas(int64(len(l.rows))) + " shown of " + commas(int64(len(l.all))), 7},
		{commas(int64(l.active())) + " active", 5},
		{"by " + procColumns[l.sortCol].title + " " + order, 6},
		idle, filter,
	}
	if stale != "" {
		items = append(items, item{"[yellow](" + stale + ")[-]", 8})
	}
	// How the list is read stays at 80 columns; how old its idle rows
	// are goes first.
	if cadence != "" {
		items = append(items, item{"(" + safeLine(cadence, 60) + ")", 8})
	}
	if cadenceAge != "" {
		items = append(items, item{"(" + safeLine(cadenceAge, 40) + ")", 4})
	}
	return " " + fit(items, width-4) + " "
}
