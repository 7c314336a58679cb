package collectors

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestLivePeriodicPartsCarriedBetweenReads reads a real server with every
// period an hour: the second tick runs none of the periodic collectors, and
// must still hold each one's part exactly as the first tick read it.
func TestLivePeriodicPartsCarriedBetweenReads(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
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
