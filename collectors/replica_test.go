package collectors

import (
	"testing"
	"time"
)

func TestReplicaPeriodWhileNoReplication(t *testing.T) {
	r := &replica{idleEvery: 30 * time.Second}
	e := &scheduled{c: r}
	t0 := time.Unix(1000, 0)
	e.lastRun = t0
	if e.due(t0.Add(10*time.Second), time.Second) {
		t.Error("a server that is no replica is asked for replica status again within 10 s")
	}
	if !e.due(t0.Add(30*time.Second), time.Second) {
		t.Error("not asked again after 30 s: replication being set up would go unseen")
	}
	r.last = []map[string]string{{"Slave_IO_Running": "Yes"}}
	if !e.due(t0.Add(time.Second), time.Second) {
		t.Error("a replica's status is not read every tick")
	}
}
