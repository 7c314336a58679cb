package changes

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/snaptest"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

var t0 = time.Date(2026, 12, 3, 14, 0, 0, 0, time.UTC)

// server is a made-up server whose counters grow at the rates given, for
// building frames as the pipeline does (snapshot.Delta between neighbours).
type server struct {
	meter    infer.LoadMeter
	frames   snaptest.Framer
	counters map[string]float64
	vars     map[string]string
	at       time.Time
}

func newServer() *server {
	return &server{counters: map[string]float64{}, vars: map[string]string{"query_cache_type": "OFF", "gtid_binlog_pos": "0-1-1"}, at: t0}
}

// tick advances one second with each counter growing by rates, the given
// working sessions and digests, and returns the frame.
func (s *server) tick(rates map[string]float64, running int, user string, digests ...snapshot.Digest) *snapshot.Frame {
	s.at = s.at.Add(time.Second)
	status := map[string]string{"Threads_running": fmt.Sprint(running + 1), "Uptime": "1000"}
	for k, r := range rates {
		s.counters[k] += r
	}
	for k, v := range s.counters {
		status[k] = fmt.Sprint(v)
	}
	vars := map[string]string{}
	for k, v := range s.vars {
		vars[k] = v
	}
	snap := &snapshot.Snapshot{Time: s.at, Status: status, Variables: vars}
	for i := range running {
		snap.Processlist = append(snap.Processlist, snapshot.Process{ID: int64(i + 10), User: user, Host: "10.0.0.5:4411", DB: "shop", Command: "Query", Info: "SELECT 1"})
	}
	if digests != nil {
		snap.Statements = &snapshot.Statements{At: s.at, Interval: 1, Digests: digests}
	}
	f := s.frames.Next(snap)
	f.Load = s.meter.Measure(snap, f.Rates)
	return f
}

var (
	pointRead = snapshot.Digest{Digest: "a", Text: "SELECT * FROM t WHERE id = ?", Calls: 100, LatencyS: 0.1, RowsExamined: 100}
	badScan   = snapshot.Digest{Digest: "b", Text: "SELECT * FROM t WHERE note LIKE ?", Calls: 5, LatencyS: 4, RowsExamined: 500000}
)

func steady(s *server, w *Window, n int, rates map[string]float64, running int, user string, digests ...snapshot.Digest) {
	for range n {
		w.Add(s.tick(rates, running, user, digests...))
	}
}

func TestCompareNamesWhatChangedBiggestFirst(t *testing.T) {
	s := newServer()
	healthy, incident := NewWindow(), NewWindow()
	base := map[string]float64{"Questions": 200, "Com_select": 100, "Created_tmp_disk_tables": 0.2, "Handler_read_rnd_next": 50}
	steady(s, healthy, 30, base, 2, "app", pointRead)
	s.vars["query_cache_type"] = "ON"
	s.vars["gtid_binlog_pos"] = "0-1-999" // moves by itself: never a change
	bad := map[string]float64{"Questions": 220, "Com_select": 105, "Created_tmp_disk_tables": 45, "Handler_read_rnd_next": 400000}
	steady(s, incident, 30, bad, 12, "report", pointRead, badScan)

	cs := Compare(healthy, incident)
	if len(cs) < 4 {
		t.Fatalf("changes %v", lines(cs))
	}
	if cs[0].Kind != KindStatement || cs[0].Name != badScan.Text {
		t.Errorf("first change %q, want the new statement", cs[0].Line())
	}
	if cs[1].Kind != KindVariable || cs[1].Name != "query_cache_type" || cs[1].Before != "OFF" || cs[1].After != "ON" ||
		!cs[1].When.Equal(t0.Add(31*time.Second)) {
		t.Errorf("second change %q, want query_cache_type OFF → ON at the incident's first frame", cs[1].Line())
	}
	all := strings.Join(lines(cs), "\n")
	for _, want := range []string{
		"status Handler_read_rnd_next per second: 50 → 400000 (×8000)",
		"status Created_tmp_disk_tables per second: 0.2 → 45 (×225)",
		"status Threads_running average: 3 → 13 (×4.3)",
		"mix user:report share of active sessions (%): 0 → 100",
		"load cpu average active sessions: 2 → 12 (×6)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("changes lack %q:\n%s", want, all)
		}
	}
	for _, quiet := range []string{"Questions", "Com_select", "gtid_binlog_pos", "SELECT * FROM t WHERE id = ?"} {
		if strings.Contains(all, quiet) {
			t.Errorf("%s barely moved, yet is listed:\n%s", quiet, all)
		}
	}
	if i, j := index(cs, "Handler_read_rnd_next"), index(cs, "Created_tmp_disk_tables"); i > j {
		t.Errorf("×8000 must rank above ×225:\n%s", all)
	}
}

func TestCompareSteadyServerWithItselfListsNothing(t *testing.T) {
	s := newServer()
	a, b := NewWindow(), NewWindow()
	rates := map[string]float64{"Questions": 200, "Com_select": 100, "Created_tmp_disk_tables": 0.5}
	steady(s, a, 30, rates, 3, "app", pointRead)
	rates["Questions"], rates["Com_select"] = 290, 60 // the minute-to-minute wander of a busy server
	steady(s, b, 30, rates, 4, "app", pointRead)
	if cs := Compare(a, b); len(cs) != 0 {
		t.Errorf("a steady server moved:\n%s", strings.Join(lines(cs), "\n"))
	}
}

func TestCompareStatementRegressedPerCall(t *testing.T) {
	s := newServer()
	a, b := NewWindow(), NewWindow()
	steady(s, a, 20, nil, 1, "app", pointRead)
	slow := pointRead
	slow.LatencyS, slow.RowsExamined = 3, 250000 // the plan lost its index
	steady(s, b, 20, nil, 1, "app", slow)
	all := strings.Join(lines(Compare(a, b)), "\n")
	for _, want := range []string{
		"statement SELECT * FROM t WHERE id = ? latency per call (s): 0.001 → 0.03 (×30)",
		"statement SELECT * FROM t WHERE id = ? rows examined per call: 1 → 2500 (×2500)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("lacks %q:\n%s", want, all)
		}
	}
}

func lines(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Line())
	}
	return out
}

func index(cs []Change, name string) int {
	for i, c := range cs {
		if c.Name == name {
			return i
		}
	}
	return -1
}
