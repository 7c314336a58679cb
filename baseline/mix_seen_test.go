package baseline

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// lightNormal is a lightly loaded server: two or three sessions active,
// so no frame's mix is judged (minMixActive), though its statements are
// seen in every frame.
func lightNormal(smp *sample) {
	smp.procs = []procSpec{
		{n: 1, user: "app", host: "10.0.0.5", state: "Sending data", query: "SELECT c FROM sbtest1 WHERE id=5"},
		{n: 1, user: "app", host: "10.0.0.6", state: "updating", query: "UPDATE sbtest1 SET k=k+1 WHERE id=7"},
	}
	smp.gauges["Threads_running"] = 3
}

// TestUsualStatementsPilingUpAreNotNew: on a lightly loaded server, the
// application's own UPDATE caught by a pile-up of 30 sessions (every other
// few seconds, behind something else) is not a new or regressed statement;
// a statement the server never ran is, even when a frame whose mix is not
// judged shows it first.
func TestUsualStatementsPilingUpAreNotNew(t *testing.T) {
	for _, c := range []struct {
		name, query string
		isNew       bool
	}{
		{"the usual update", "UPDATE sbtest1 SET k=k+1 WHERE id=7", false},
		{"a new scan", "SELECT * FROM sbtest1 WHERE c LIKE '%abc%'", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, s := New(DefaultConfig()), newSim(31, time.Second)
			s.fault, s.faultAt = lightNormal, epoch
			run(tr, s, 20*time.Minute, nil)
			s.fault, s.faultAt = func(smp *sample) {
				lightNormal(smp)
				n := 1
				if s.now.Unix()%4 < 2 {
					n = 30
					smp.gauges["Threads_running"] = 32
				}
				smp.procs = append(smp.procs, procSpec{n: n, user: "app", host: "10.0.0.6", state: "updating", query: c.query})
				if c.isNew {
					smp.rates["Innodb_rows_read"] += 400000
					smp.rates["Handler_read_rnd_next"] += 400000
				}
			}, s.now.Add(time.Nanosecond)
			var named *snapshot.Onset
			run(tr, s, time.Minute, func(f *snapshot.Frame) {
				for i, o := range f.Onsets {
					if o.Cause == snapshot.CauseStatement && named == nil {
						named = &f.Onsets[i]
					}
				}
			})
			fp := strings.ToLower(strings.Fields(c.query)[0])
			switch {
			case c.isNew && named == nil:
				t.Error("a new statement on a light server never named")
			case !c.isNew && named != nil && len(named.Statements) > 0 && strings.HasPrefix(named.Statements[0], fp):
				t.Errorf("the usual statement named new: %s", named.Title)
			}
		})
	}
}
