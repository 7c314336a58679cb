package analyzers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Test builders: a series of snapshots one second apart, turned into frames
// with the shared Delta exactly as the pipeline does.

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// edit changes snapshot i of a series.
type edit func(i int, s *snapshot.Snapshot)

// series builds n snapshots with Uptime counting up from 1000 s, MariaDB
// variables, an empty processlist and a local 4-CPU host, then applies edits.
func series(n int, edits ...edit) []*snapshot.Snapshot {
	out := make([]*snapshot.Snapshot, n)
	for i := range out {
		s := &snapshot.Snapshot{
			Time:   t0.Add(time.Duration(i) * time.Second),
			Server: snapshot.ServerInfo{Version: "10.11.19-MariaDB", Flavor: snapshot.FlavorMariaDB},
			Status: map[string]string{"Uptime": fmt.Sprint(1000 + i), "Threads_running": "2",
				"Threads_connected": "10"},
			Variables: map[string]string{"version": "10.11.19-MariaDB", "max_connections": "151",
				"innodb_lock_wait_timeout": "50"},
			Host: &snapshot.Host{NumCPU: 4},
		}
		for _, e := range edits {
			e(i, s)
		}
		out[i] = s
	}
	return out
}

// frames wraps snapshots in frames with rates, as pipeline.Builder does.
func frames(snaps []*snapshot.Snapshot) []*snapshot.Frame {
	out := make([]*snapshot.Frame, len(snaps))
	var prev *snapshot.Snapshot
	for i, s := range snaps {
		out[i] = &snapshot.Frame{Seq: i, Snapshot: s, Rates: snapshot.Delta(prev, s)}
		prev = s
	}
	return out
}

// during applies e only to snapshots whose index is in [from, to).
func during(from, to int, e edit) edit {
	return func(i int, s *snapshot.Snapshot) {
		if i >= from && i < to {
			e(i, s)
		}
	}
}

// at applies e to the listed snapshot indexes.
func at(idx []int, e edit) edit {
	return func(i int, s *snapshot.Snapshot) {
		for _, j := range idx {
			if i == j {
				e(i, s)
			}
		}
	}
}

// counter makes status name grow by perSec each second from base.
func counter(name string, base, perSec float64) edit {
	return func(i int, s *snapshot.Snapshot) {
		s.Status[name] = fmt.Sprint(base + perSec*float64(i))
	}
}

// counters grows several counters; rates maps name to per-second growth.
func counters(rates map[string]float64) edit {
	return func(i int, s *snapshot.Snapshot) {
		for n, r := range rates {
			s.Status[n] = fmt.Sprint(1e6 + r*float64(i))
		}
	}
}

// status sets fixed status values ("name", "value", ...).
func status(kv ...string) edit {
	return func(_ int, s *snapshot.Snapshot) {
		for i := 0; i+1 < len(kv); i += 2 {
			s.Status[kv[i]] = kv[i+1]
		}
	}
}

// vars sets variables ("name", "value", ...).
func vars(kv ...string) edit {
	return func(_ int, s *snapshot.Snapshot) {
		for i := 0; i+1 < len(kv); i += 2 {
			s.Variables[kv[i]] = kv[i+1]
		}
	}
}

// procs appends processlist rows.
func procs(ps ...snapshot.Process) edit {
	return func(_ int, s *snapshot.Snapshot) { s.Processlist = append(s.Processlist, ps...) }
}

// query is a running statement row.
func query(id int64, secs float64, state, info string) snapshot.Process {
	return snapshot.Process{ID: id, User: "app", Host: "10.0.0.12:51234", DB: "shop", Command: "Query",
		TimeMS: int64(secs * 1000), State: state, Info: info, ExaminedRows: -1}
}

// sleeping is an idle connection.
func sleeping(id int64, user string) snapshot.Process {
	return snapshot.Process{ID: id, User: user, Host: "10.0.0.31:40000", Command: "Sleep", TimeMS: 3000}
}

// restartAt makes Uptime start again from 5 s at snapshot k.
func restartAt(k int) edit {
	return func(i int, s *snapshot.Snapshot) {
		if i >= k {
			s.Status["Uptime"] = fmt.Sprint(5 + i - k)
		}
	}
}

// timeline runs a fresh engine over growing windows, as the pipeline does,
// and draws rule id per frame: '.' quiet, 'i' info, 'W' warning, 'C' critical,
// 'N' not applicable.
func timeline(t *testing.T, cfg Config, snaps []*snapshot.Snapshot, id string) string {
	t.Helper()
	e := NewEngine(cfg)
	fs := frames(snaps)
	var b strings.Builder
	for i := range fs {
		findings, na := e.Evaluate(fs[:i+1])
		b.WriteByte(mark(findings, na, id))
	}
	return b.String()
}

func mark(findings []snapshot.Finding, na map[string]string, id string) byte {
	if _, ok := na[id]; ok {
		return 'N'
	}
	for _, f := range findings {
		if f.ID == id {
			return "iWC"[f.Severity]
		}
	}
	return '.'
}

// lastFinding runs the engine over all snapshots and returns rule id's
// finding at the last frame, failing the test if there is none.
func lastFinding(t *testing.T, cfg Config, snaps []*snapshot.Snapshot, id string) snapshot.Finding {
	t.Helper()
	e := NewEngine(cfg)
	fs := frames(snaps)
	var findings []snapshot.Finding
	for i := range fs {
		findings, _ = e.Evaluate(fs[:i+1])
	}
	for _, f := range findings {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no %s finding at the last frame; got %v", id, findings)
	return snapshot.Finding{}
}

// mustContain fails unless some evidence line (or the title/advice) contains each want.
func mustContain(t *testing.T, f snapshot.Finding, wants ...string) {
	t.Helper()
	all := f.Title + "\n" + strings.Join(f.Evidence, "\n") + "\n" + f.Advice
	for _, w := range wants {
		if !strings.Contains(all, w) {
			t.Errorf("%s: %q not in finding:\n%s", f.ID, w, all)
		}
	}
}

// timelineCase is one row of a rule's table test.
type timelineCase struct {
	name  string
	snaps []*snapshot.Snapshot
	want  string
}

func runTimelines(t *testing.T, id string, cfg Config, cases []timelineCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := timeline(t, cfg, c.snaps, id); got != c.want {
				t.Errorf("%s\n got %s\nwant %s", id, got, c.want)
			}
		})
	}
}
