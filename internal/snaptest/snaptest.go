// Package snaptest builds snapshots and frames for tests: a series one
// second apart shaped by edits (status values, counters that grow,
// variables, processlist rows), and frames with their rates from the
// snapshot before, as pipeline.Builder makes them.
//
//	snaps := snaptest.Series(t0, 30, snaptest.MariaDB("10.11.19-MariaDB"),
//		snaptest.Counter("Questions", 1000, 50),
//		snaptest.During(10, 20, snaptest.Procs(snaptest.Query(7, 12, "Sending data", "SELECT ..."))))
//	frames := snaptest.Frames(snaps)
package snaptest

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Edit changes snapshot i of a series.
type Edit func(i int, s *snapshot.Snapshot)

// Series builds n snapshots one second apart from t0, each with empty
// Status and Variables maps, then applies edits in order to each.
func Series(t0 time.Time, n int, edits ...Edit) []*snapshot.Snapshot {
	out := make([]*snapshot.Snapshot, n)
	for i := range out {
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second),
			Status: map[string]string{}, Variables: map[string]string{}}
		for _, e := range edits {
			e(i, s)
		}
		out[i] = s
	}
	return out
}

// At is one snapshot at t, shaped by edits (as the first of a series).
func At(t time.Time, edits ...Edit) *snapshot.Snapshot {
	return Series(t, 1, edits...)[0]
}

// Frames wraps snapshots in frames numbered from 0, each with its rates
// from the one before.
func Frames(snaps []*snapshot.Snapshot) []*snapshot.Frame {
	var fr Framer
	out := make([]*snapshot.Frame, len(snaps))
	for i, s := range snaps {
		out[i] = fr.Next(s)
	}
	return out
}

// Framer makes frames one snapshot at a time, as pipeline.Builder does
// before its analyzers: numbered from 0, with rates from the snapshot
// before (none for the first). The zero value is ready.
type Framer struct {
	prev *snapshot.Snapshot
	seq  int
}

// Next is s's frame.
func (f *Framer) Next(s *snapshot.Snapshot) *snapshot.Frame {
	fr := &snapshot.Frame{Seq: f.seq, Snapshot: s, Rates: snapshot.Delta(f.prev, s)}
	f.prev = s
	f.seq++
	return fr
}

// Frame is s in a frame with findings and no rates.
func Frame(s *snapshot.Snapshot, findings ...snapshot.Finding) *snapshot.Frame {
	return &snapshot.Frame{Snapshot: s, Findings: findings}
}

// MariaDB names the server: a MariaDB of version.
func MariaDB(version string) Edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.Server.Version, s.Server.Flavor = version, snapshot.FlavorMariaDB
	}
}

// During applies e only to snapshots whose index is in [from, to).
func During(from, to int, e Edit) Edit {
	return func(i int, s *snapshot.Snapshot) {
		if i >= from && i < to {
			e(i, s)
		}
	}
}

// Only applies e to the listed snapshot indexes.
func Only(idx []int, e Edit) Edit {
	return func(i int, s *snapshot.Snapshot) {
		for _, j := range idx {
			if i == j {
				e(i, s)
			}
		}
	}
}

// Counter makes status name grow by perSec each second from base.
func Counter(name string, base, perSec float64) Edit {
	return func(i int, s *snapshot.Snapshot) {
		s.Status[name] = fmt.Sprint(base + perSec*float64(i))
	}
}

// Counters grows several counters from 1e6; rates maps name to per-second
// growth.
func Counters(rates map[string]float64) Edit {
	return func(i int, s *snapshot.Snapshot) {
		for n, r := range rates {
			s.Status[n] = fmt.Sprint(1e6 + r*float64(i))
		}
	}
}

// Status sets fixed status values ("name", "value", ...).
func Status(kv ...string) Edit {
	return func(_ int, s *snapshot.Snapshot) {
		for i := 0; i+1 < len(kv); i += 2 {
			s.Status[kv[i]] = kv[i+1]
		}
	}
}

// Vars sets variables ("name", "value", ...).
func Vars(kv ...string) Edit {
	return func(_ int, s *snapshot.Snapshot) {
		for i := 0; i+1 < len(kv); i += 2 {
			s.Variables[kv[i]] = kv[i+1]
		}
	}
}

// Procs appends processlist rows.
func Procs(ps ...snapshot.Process) Edit {
	return func(_ int, s *snapshot.Snapshot) { s.Processlist = append(s.Processlist, ps...) }
}

// Query is an application's running statement, secs into it.
func Query(id int64, secs float64, state, info string) snapshot.Process {
	return snapshot.Process{ID: id, User: "app", Host: "10.0.0.12:51234", DB: "shop", Command: "Query",
		TimeMS: int64(secs * 1000), State: state, Info: info, ExaminedRows: -1}
}

// Sleeping is user's idle connection.
func Sleeping(id int64, user string) snapshot.Process {
	return snapshot.Process{ID: id, User: user, Host: "10.0.0.31:40000", Command: "Sleep", TimeMS: 3000}
}
