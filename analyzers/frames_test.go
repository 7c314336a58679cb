package analyzers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/snaptest"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Test builders: a series of snapshots one second apart, turned into frames
// with the shared Delta exactly as the pipeline does. They are snaptest's,
// under the short names the rules' table tests use.

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// edit changes snapshot i of a series.
type edit = snaptest.Edit

var (
	frames   = snaptest.Frames   // frames with rates, as pipeline.Builder makes them
	during   = snaptest.During   // e on the snapshots in [from, to)
	at       = snaptest.Only     // e on the listed snapshots
	counter  = snaptest.Counter  // a status counter growing from base
	counters = snaptest.Counters // several, from 1e6
	status   = snaptest.Status   // fixed status values
	vars     = snaptest.Vars     // variables
	procs    = snaptest.Procs    // processlist rows
	query    = snaptest.Query    // a running statement row
	sleeping = snaptest.Sleeping // an idle connection
)

// series builds n snapshots with Uptime counting up from 1000 s, MariaDB
// variables, an empty processlist and a local 4-CPU host, then applies edits.
func series(n int, edits ...edit) []*snapshot.Snapshot {
	return snaptest.Series(t0, n, append([]edit{ordinaryServer}, edits...)...)
}

// ordinaryServer is what series starts from.
func ordinaryServer(i int, s *snapshot.Snapshot) {
	snaptest.MariaDB("10.11.19-MariaDB")(i, s)
	s.Status["Uptime"], s.Status["Threads_running"], s.Status["Threads_connected"] = fmt.Sprint(1000+i), "2", "10"
	s.Variables["version"], s.Variables["max_connections"], s.Variables["innodb_lock_wait_timeout"] =
		"10.11.19-MariaDB", "151", "50"
	s.Host = &snapshot.Host{NumCPU: 4}
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
