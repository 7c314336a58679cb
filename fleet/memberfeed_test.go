package fleet_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

// recordedTicks are the snapshots of a committed recording of MariaDB
// (some 600 real status names), played round and round as one server's
// ticks for as long as a test needs.
type recordedTicks struct {
	snaps []*snapshot.Snapshot
	// growth is each whole-number counter's rise over one play, added per
	// lap so counters keep rising across the wrap instead of restarting.
	growth map[string]uint64
}

func loadTicks(t testing.TB, path string) *recordedTicks {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rt := &recordedTicks{growth: map[string]uint64{}}
	for i := range r.Len() {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		rt.snaps = append(rt.snaps, s)
	}
	first, last := rt.snaps[0].Status, rt.snaps[len(rt.snaps)-1].Status
	for name, v := range last {
		a, errA := strconv.ParseUint(first[name], 10, 64)
		b, errB := strconv.ParseUint(v, 10, 64)
		if errA == nil && errB == nil && b >= a {
			rt.growth[name] = b - a + 1
		}
	}
	return rt
}

// tickFeed makes one member's ticks from recordedTicks as the live status
// reader would hand them over: a new map each tick that shares names and
// unchanged values with the one before (collectors/pairs.go), a processlist
// of its own, and the InnoDB status carried from tick to tick until it is
// read again, as the live collector carries it (a recording decodes a copy
// per frame).
type tickFeed struct {
	from   *recordedTicks
	start  time.Time
	n      int
	last   map[string]string
	innodb *snapshot.InnoDBStatus
}

func (f *tickFeed) next() *snapshot.Snapshot {
	lap, i := f.n/len(f.from.snaps), f.n%len(f.from.snaps)
	tmpl := f.from.snaps[i]
	s := *tmpl
	s.Time = f.start.Add(time.Duration(f.n) * time.Second)
	s.Processlist = slices.Clone(tmpl.Processlist)
	s.Status = f.status(tmpl.Status, uint64(lap))
	s.InnoDB = f.carried(tmpl.InnoDB)
	f.n++
	return &s
}

func (f *tickFeed) status(tmpl map[string]string, lap uint64) map[string]string {
	m := make(map[string]string, len(tmpl))
	for name, v := range tmpl {
		if g, ok := f.from.growth[name]; ok && lap > 0 {
			n, _ := strconv.ParseUint(v, 10, 64)
			v = strconv.FormatUint(n+lap*g, 10)
		}
		if old, ok := f.last[name]; ok && old == v {
			v = old
		}
		m[name] = v
	}
	f.last = m
	return m
}

func (f *tickFeed) carried(in *snapshot.InnoDBStatus) *snapshot.InnoDBStatus {
	if in == nil || f.innodb == nil || in.Raw != f.innodb.Raw {
		f.innodb = in
	}
	return f.innodb
}
