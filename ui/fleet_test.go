package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/mytop-go/mytop-go/snapshot"
)

func fleetFrame(at time.Time, version string, unreachable bool, findings ...snapshot.Finding) *snapshot.Frame {
	return &snapshot.Frame{
		Snapshot: &snapshot.Snapshot{Time: at,
			Server: snapshot.ServerInfo{Version: version, Flavor: snapshot.FlavorMariaDB, Unreachable: unreachable},
			Status: map[string]string{"Uptime": "273600", "Threads_running": "38"}},
		Rates:    &snapshot.Rates{Status: map[string]float64{"Questions": 1482}},
		Findings: findings,
	}
}

func newTestFleet(n int) (*Fleet, []string) {
	var names []string
	for i := 0; i < n; i++ {
		names = append(names, "db"+string(rune('a'+i))+".example")
	}
	return NewFleet(names, func(string) Options { return Options{ReadOnly: true} }), names
}

// The fleet lists every server, worst first, and counts them in the header.
func TestFleetWorstFirst(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	fl, names := newTestFleet(4)
	fl.Update(names[0], fleetFrame(at, "10.11.19-MariaDB", false))
	fl.Update(names[1], fleetFrame(at, "10.11.19-MariaDB", false,
		snapshot.Finding{ID: "tmp_disk_tables", Severity: snapshot.Warning, Since: at.Add(-10 * time.Second)}))
	fl.Update(names[2], fleetFrame(at, "10.11.19-MariaDB", false,
		snapshot.Finding{ID: "query_cache_contention", Severity: snapshot.Critical, Since: at.Add(-41 * time.Second)}))
	fl.Update(names[3], fleetFrame(at, "10.11.19-MariaDB", true,
		snapshot.Finding{ID: "server_unresponsive", Severity: snapshot.Critical, Since: at.Add(-3 * time.Second)}))
	text := ScreenText(fl.DrawOn(80, 24))
	lines := strings.Split(text, "\n")
	if !strings.Contains(lines[0], "4 servers") || !strings.Contains(lines[0], "2 critical, 1 warning") ||
		!strings.Contains(lines[0], "1 down") {
		t.Errorf("header %q", lines[0])
	}
	order := []string{"dbc.example", "dbd.example", "dbb.example", "dba.example"}
	for i, want := range order {
		if !strings.HasPrefix(lines[2+i], want) {
			t.Errorf("row %d: %q, want %s first (worst first; critical by name, then warning, then ok)", i, lines[2+i], want)
		}
	}
	for _, want := range []string{"CRIT query_cache_contention", "0:41", "DOWN", "WARN tmp_disk_tables", "1,482", "38", "MariaDB 10.11"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// On servers sharing one busy host every row has cpu_saturation; the row
// with a finding of its own comes first and names it.
func TestFleetPrefersTheServersOwnFinding(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	cpu := snapshot.Finding{ID: "cpu_saturation", Severity: snapshot.Warning, Since: at}
	fl, names := newTestFleet(3)
	fl.Update(names[0], fleetFrame(at, "10.11.19-MariaDB", false, cpu))
	fl.Update(names[1], fleetFrame(at, "10.11.19-MariaDB", false, cpu))
	fl.Update(names[2], fleetFrame(at, "10.11.19-MariaDB", false, cpu,
		snapshot.Finding{ID: "row_lock_waits", Severity: snapshot.Warning, Since: at}))
	lines := strings.Split(ScreenText(fl.DrawOn(80, 24)), "\n")
	if !strings.HasPrefix(lines[2], "dbc.example") || !strings.Contains(lines[2], "WARN row_lock_waits +1") {
		t.Errorf("first row %q, want dbc.example naming row_lock_waits +1", lines[2])
	}
}

// At 80×24 the fleet shows more than 15 servers, one line each.
func TestFleetFits80x24(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	fl, names := newTestFleet(20)
	for _, n := range names {
		fl.Update(n, fleetFrame(at, "10.11.19-MariaDB", false))
	}
	text := ScreenText(fl.DrawOn(80, 24))
	shown := 0
	for _, n := range names {
		if strings.Contains(text, n) {
			shown++
		}
	}
	if shown < 15 {
		t.Errorf("%d of 20 servers shown at 80x24, want 15 or more:\n%s", shown, text)
	}
}

// Enter opens the selected server's dashboard, Esc comes back; a dashboard
// fed while hidden shows its latest frame at once.
func TestFleetEnterAndEsc(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	fl, names := newTestFleet(3)
	for _, n := range names {
		fl.Update(n, fleetFrame(at, "10.11.19-MariaDB", false))
	}
	fl.Update(names[1], fleetFrame(at.Add(time.Second), "10.11.19-MariaDB", false,
		snapshot.Finding{ID: "row_lock_waits", Severity: snapshot.Warning, Since: at}))
	key := func(k tcell.Key, r rune) {
		fl.InputHandler()(tcell.NewEventKey(k, r, tcell.ModNone), nil)
	}
	key(tcell.KeyEnter, 0)
	if fl.Opened() != names[1] {
		t.Fatalf("Enter opened %q, want the worst server %s", fl.Opened(), names[1])
	}
	text := ScreenText(fl.DrawOn(100, 30))
	if !strings.Contains(text, "row_lock_waits") || !strings.Contains(text, "Processlist") {
		t.Errorf("the server's dashboard is not shown:\n%s", text)
	}
	key(tcell.KeyEscape, 0)
	if fl.Opened() != "" {
		t.Fatalf("Esc left %q open", fl.Opened())
	}
	key(tcell.KeyDown, 0)
	key(tcell.KeyEnter, 0)
	if fl.Opened() == names[1] || fl.Opened() == "" {
		t.Errorf("Down then Enter opened %q, want the second row", fl.Opened())
	}
}

// With every node of a Galera cluster in the fleet, the header names the one
// sending flow control: each node's own view only says the cluster paused.
func TestFleetNamesTheFlowControlSender(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	fl, names := newTestFleet(3)
	for i, n := range names {
		f := fleetFrame(at, "10.11.19-MariaDB", false)
		f.Snapshot.Variables = map[string]string{"wsrep_on": "ON"}
		f.Snapshot.Status["wsrep_cluster_status"] = "Primary"
		sent := 0.0
		if i == 1 {
			sent = 4
		}
		f.Rates = &snapshot.Rates{Interval: 1, Status: map[string]float64{
			"wsrep_flow_control_paused_ns": 6e8, "wsrep_flow_control_sent": sent, "wsrep_flow_control_recv": 4}}
		fl.Update(n, f)
	}
	header := strings.Split(ScreenText(fl.DrawOn(100, 24)), "\n")[0]
	if !strings.Contains(header, "FC sent by "+names[1]) {
		t.Errorf("header %q does not name %s as the flow-control sender", header, names[1])
	}
}

// The lag column reads every channel: the worst lag, or "stop" when a
// channel's thread does not run.
func TestFleetLagOverChannels(t *testing.T) {
	ch := func(name, behind, sql string) map[string]string {
		return map[string]string{"Connection_name": name, "Slave_IO_Running": "Yes", "Slave_SQL_Running": sql,
			"Seconds_Behind_Master": behind, "SQL_Delay": "0"}
	}
	cases := []struct {
		chans []map[string]string
		want  string
	}{
		{nil, "-"},
		{[]map[string]string{ch("a", "5", "Yes"), ch("b", "90", "Yes")}, age(90 * time.Second)},
		{[]map[string]string{ch("a", "5", "Yes"), ch("b", "", "No")}, "stop"},
	}
	for _, c := range cases {
		if got := fleetLag(&snapshot.Snapshot{ReplicaChannels: c.chans}); got != c.want {
			t.Errorf("%v: %q, want %q", c.chans, got, c.want)
		}
	}
}

// A name that looks like a colour tag shows as written: escaped once, not
// twice (which showed "db[red[]").
func TestFleetShowsATagLikeNameVerbatim(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	name := "db[red].example"
	fl := NewFleet([]string{name}, func(string) Options { return Options{ReadOnly: true} })
	fl.Update(name, fleetFrame(at, "10.11.19-MariaDB", false))
	text := ScreenText(fl.DrawOn(80, 24))
	if !strings.Contains(text, name+" ") {
		t.Errorf("no %q in\n%s", name, text)
	}
}
