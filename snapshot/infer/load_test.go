package infer

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestLoadMeasure(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := &snapshot.Snapshot{
		Time: at,
		Host: &snapshot.Host{NumCPU: 4},
		Processlist: []snapshot.Process{
			{ID: 1, Command: "Sleep", User: "app", Host: "10.0.0.1:5000"},
			{ID: 2, Command: "Query", User: "app", Host: "10.0.0.1:5001", DB: "shop", State: "Sending data", Info: "SELECT * FROM t WHERE id = 5"},
			{ID: 3, Command: "Query", User: "app", Host: "10.0.0.2:5002", DB: "shop", State: "updating", Info: "UPDATE hot SET n = n + 1 WHERE id = 1"},
			{ID: 4, Command: "Query", User: "app", Host: "10.0.0.2:5003", DB: "shop", State: "updating", Info: "UPDATE hot SET n = n + 1 WHERE id = 1"},
			{ID: 5, Command: "Query", User: "dba", Host: "localhost", State: "Waiting for table metadata lock", Info: "ALTER TABLE hot ADD c INT"},
		},
		Locks: &snapshot.Locks{Waits: []snapshot.LockWait{
			{Waiter: 3, Blocker: 9, Kind: snapshot.LockRow, Object: "shop.hot PRIMARY"},
			{Waiter: 4, Blocker: 9, Kind: snapshot.LockRow, Object: "shop.hot PRIMARY"},
			{Waiter: 4, Blocker: 3, Kind: snapshot.LockRow, Object: "shop.hot PRIMARY"},
		}},
	}
	var m LoadMeter
	l := m.Measure(s, &snapshot.Rates{Interval: 2})
	if l.Active != 4 || l.Classes.Total() != 4 {
		t.Fatalf("active %d, classes add to %v; want 4", l.Active, l.Classes.Total())
	}
	if l.Classes[snapshot.ClassRowLock] != 2 || l.Classes[snapshot.ClassCPU] != 1 || l.Classes[snapshot.ClassMetadataLock] != 1 {
		t.Errorf("classes %v", l.Classes)
	}
	if l.Interval != 2 || l.CPUs != 4 || !l.At.Equal(at) {
		t.Errorf("interval %v cpus %d at %v", l.Interval, l.CPUs, l.At)
	}
	want := map[string]float64{
		"statement/update hot set n = n + ? where id = ?": 2,
		"user/app":            3,
		"host/10.0.0.2":       2,
		"host/localhost":      1,
		"db/shop":             3,
		"db/" + snapshot.NoDB: 1,
		"object/shop.hot":     2,
	}
	got := map[string]float64{}
	for _, sl := range l.Slices {
		got[string(sl.By)+"/"+sl.Name] = sl.Sessions()
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("slice %s = %v, want %v (slices %v)", k, got[k], v, got)
		}
	}
}

func TestLoadUnknownWithoutProcesslist(t *testing.T) {
	var m LoadMeter
	down := &snapshot.Snapshot{Server: snapshot.ServerInfo{Unreachable: true}}
	if l := m.Measure(down, nil); l != nil {
		t.Errorf("unreachable server: load %+v, want nil (unknown)", l)
	}
	capture := &snapshot.Snapshot{Collectors: map[snapshot.CollectorName]snapshot.CollectorState{snapshot.CollectorProcesslist: {Unavailable: "not in this capture"}}}
	if l := m.Measure(capture, nil); l != nil {
		t.Errorf("capture without a processlist: load %+v, want nil", l)
	}
	quiet := &snapshot.Snapshot{Processlist: []snapshot.Process{{Command: "Sleep"}}}
	if l := m.Measure(quiet, nil); l == nil || l.Active != 0 || l.Interval != 1 {
		t.Errorf("quiet server: %+v, want 0 active over 1 s", l)
	}
}

func TestClassLoadJSONLeavesZerosOut(t *testing.T) {
	l := snapshot.ClassLoad{}
	l[snapshot.ClassCPU], l[snapshot.ClassRowLock] = 2, 12.33333
	b, err := json.Marshal(l)
	if err != nil || string(b) != `{"cpu":2,"row_lock":12.333}` {
		t.Fatalf("got %s, %v", b, err)
	}
	var back snapshot.ClassLoad
	if err := json.Unmarshal([]byte(`{"cpu":2,"row_lock":12.333,"future":1}`), &back); err != nil || back[snapshot.ClassRowLock] != 12.333 {
		t.Errorf("back %v, %v", back, err)
	}
}

func TestLoadTotals(t *testing.T) {
	var tot LoadTotals
	mk := func(cpu, row float64, iv float64) *snapshot.Load {
		l := &snapshot.Load{Interval: iv, Active: int(cpu + row)}
		l.Classes[snapshot.ClassCPU], l.Classes[snapshot.ClassRowLock] = cpu, row
		l.Slices = []snapshot.LoadSlice{{By: snapshot.DimStatement, Name: "update hot", Classes: snapshot.ClassLoad{snapshot.ClassRowLock: row}}}
		return l
	}
	tot.Add(mk(2, 0, 1))
	tot.Add(mk(2, 12, 1))
	tot.Add(nil)
	tot.Add(mk(2, 12, 2))
	avg := tot.Average()
	if tot.Seconds != 4 || avg[snapshot.ClassCPU] != 2 || avg[snapshot.ClassRowLock] != 9 {
		t.Errorf("seconds %v average %v", tot.Seconds, avg)
	}
	if s := tot.Share(snapshot.ClassRowLock); s < 0.81 || s > 0.82 {
		t.Errorf("row-lock share %v, want 36/44", s)
	}
	top := tot.Top(3, snapshot.ClassRowLock)
	if len(top) != 1 || top[0].Sessions() != 9 || !strings.HasPrefix(top[0].Name, "update") {
		t.Errorf("top %+v", top)
	}
	if tot.Peak != 14 {
		t.Errorf("peak %d", tot.Peak)
	}
}

func TestHostOnly(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.12:53422": "10.0.0.12", "localhost": "localhost", "[::1]:5000": "::1", "fe80::1": "fe80::1", "": "",
	} {
		if got := hostOnly(in); got != want {
			t.Errorf("hostOnly(%q) = %q, want %q", in, got, want)
		}
	}
}
