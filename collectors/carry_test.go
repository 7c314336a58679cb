package collectors

import (
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
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
