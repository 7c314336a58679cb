package collectors

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestEveryPeriodicCollectorCarriesItsPart: a collector of the live schedule
// that does not run every tick must carry its last part into the ticks it is
// not due, or its data silently vanishes from them (and from a recording).
// Every period of the periods table is set, so no entry hides behind a 0
// default, and each to a value of its own, so a period whose collector the
// schedule does not use fails.
func TestEveryPeriodicCollectorCarriesItsPart(t *testing.T) {
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr = "tcp", "127.0.0.1:1"
	opts := LiveOptions{Config: cfg}
	for i, p := range periods {
		*p.of(&opts) = time.Hour + time.Duration(i)*time.Second
	}
	l, err := NewLive(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, p := range periods {
		used := false
		for _, e := range l.entries {
			used = used || e.every == *p.of(&opts)
		}
		if !used {
			t.Errorf("--%s sets no collector of the schedule (Live.schedule)", p.flag)
		}
	}
	periodic := 0
	for _, e := range l.entries {
		_, adaptive := e.c.(adaptivePeriod)
		if e.every == 0 && !adaptive {
			continue
		}
		periodic++
		if _, ok := e.c.(carrier); !ok {
			t.Errorf("%s runs every %s but does not implement carry: its part is lost on the ticks between",
				e.c.Name(), e.every)
		}
	}
	if periodic < 5 {
		t.Errorf("%d periodic collectors in the schedule, want at least variables, replica, InnoDB, its size, digests", periodic)
	}
}

// TestLivePeriodicPartsCarriedBetweenReads reads a real server with every
// period an hour: the second tick runs none of the periodic collectors, and
// must still hold each one's part exactly as the first tick read it.
func TestLivePeriodicPartsCarriedBetweenReads(t *testing.T) {
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), testInterval, func(o *LiveOptions) {
		for _, p := range periods {
			*p.of(o) = time.Hour
		}
	})
	ctx := context.Background()
	// A tick out of budget on a loaded machine leaves a periodic read to
	// the next one (seen: a first tick with no InnoDB status in a full run),
	// so each part is judged from the first tick that read it.
	var ticks []*snapshot.Snapshot
	tick := func(i int) *snapshot.Snapshot {
		for len(ticks) <= i {
			s, err := l.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ticks = append(ticks, s)
		}
		return ticks[i]
	}
	const maxTicks = 10
	// Every tick judged is taken before the collectors are run by hand
	// below: a hand-run InnoDB read replaces the part the collector carries,
	// and a tick taken after it (when an earlier tick was out of budget)
	// carried that read instead of the tick's own (seen in a full run).
	tick(maxTicks)
	checked := 0
	for _, e := range l.entries {
		_, adaptive := e.c.(adaptivePeriod)
		if e.every == 0 && !adaptive {
			continue
		}
		// Which parts of a Snapshot this collector fills: run it once more
		// on an empty one (the session is idle between ticks).
		own := &snapshot.Snapshot{Time: time.Now(), Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
		// A loaded machine's first ticks may not have connected yet.
		err := e.c.Collect(ctx, own)
		for n := len(ticks); err != nil && n < maxTicks; n++ {
			tick(n)
			err = e.c.Collect(ctx, own)
		}
		if err != nil {
			t.Fatalf("%s: %v", e.c.Name(), err)
		}
		ov := reflect.ValueOf(own).Elem()
		for i := range ov.NumField() {
			field := ov.Type().Field(i).Name
			switch field {
			case "Time", "Collectors", "VariablesChanged":
				continue // the tick's own; a carried part has not changed
			}
			if ov.Field(i).IsZero() {
				continue
			}
			checked++
			read := 0
			for read < maxTicks && reflect.ValueOf(tick(read)).Elem().Field(i).IsZero() {
				read++
			}
			if read == maxTicks {
				t.Errorf("%s: no tick of %d read %s", e.c.Name(), maxTicks, field)
				continue
			}
			fv, sv := reflect.ValueOf(tick(read)).Elem(), reflect.ValueOf(tick(read+1)).Elem()
			if !reflect.DeepEqual(sv.Field(i).Interface(), fv.Field(i).Interface()) {
				t.Errorf("%s: %s on the tick it was not due differs from its last read", e.c.Name(), field)
			}
		}
	}
	if checked < 3 {
		t.Errorf("%d parts checked, want at least variables, InnoDB status and its file size", checked)
	}
}
