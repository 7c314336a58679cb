package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// down makes the server miss ticks: no status, no processlist.
func down(_ int, s *snapshot.Snapshot) {
	s.Server.Unreachable = true
	s.Server.Error = "i/o timeout"
	s.Server.DownSince = t0.Add(3e9)
	s.Status, s.Processlist, s.InnoDB, s.Replica = nil, nil, nil, nil
}

func TestServerUnresponsive(t *testing.T) {
	runTimelines(t, IDServerUnresponsive, DefaultConfig(), []timelineCase{
		{"raised once the silence is real, cleared at once", series(8, during(3, 6, down)), "....CC.."},
		// The trap: a 105 ms restart makes one tick miss; "0.0 s" is no outage.
		{"one missed tick is a blip", series(6, during(3, 4, down)), "......"},
		{"answering", series(3), "..."},
	})
	f := lastFinding(t, DefaultConfig(), series(6, during(3, 6, down)), IDServerUnresponsive)
	mustContain(t, f, "server has not answered for 2.0 s", "last error: i/o timeout", "no answer since 10:00:03 UTC")
}

func TestOtherRulesStayQuietWhileServerIsDown(t *testing.T) {
	snaps := series(10, bpLoad(10000, 1500), qcOn, replica("Seconds_Behind_Master", "0"),
		trx(snapshot.InnoDBTrx{ID: "1"}), during(5, 10, down))
	e := NewEngine(DefaultConfig())
	fs := frames(snaps)
	var before map[string]string
	for i := range fs {
		findings, na := e.Evaluate(fs[:i+1])
		if i == 4 {
			before = na
		}
		for id, why := range na {
			if _, ok := before[id]; i >= 5 && !ok {
				t.Errorf("frame %d: %s became not applicable while the server is down: %s", i, id, why)
			}
		}
		if i == 9 && (len(findings) != 1 || findings[0].ID != IDServerUnresponsive) {
			t.Errorf("frame %d: %v, want only server_unresponsive once the miss finding cleared", i, findings)
		}
	}
}
