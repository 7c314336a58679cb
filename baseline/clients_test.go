package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// lanClients is a LAN's client connections: a sample finds one or two
// answers in flight, a few KiB.
func lanClients(s *sim) *snapshot.ClientQueues {
	n := s.rng.IntN(3)
	return &snapshot.ClientQueues{Connections: 1065, Sending: n, SendBytes: uint64(n) * 3000}
}

// slowLink is a link at its capacity on a normal that keeps sessions idle
// inside their transactions all the time (an application holding a row
// between its statements): the sessions idle in a transaction rise no
// further than the normal's own, so only the clients' queues say it.
func slowLink(s *sim, smp *sample) {
	for _, k := range []string{"Questions", "Com_insert", "Com_update", "Com_delete", "Com_commit", "Innodb_rows_read",
		"Handler_read_rnd_next", "Bytes_sent", "Bytes_received", "Innodb_data_written"} {
		smp.rates[k] *= 0.2
	}
	smp.txB *= 0.17
	smp.clients = &snapshot.ClientQueues{Connections: 1065, Sending: 18 + s.rng.IntN(8), SendBytes: 600e3}
}

// TestSlowLinkSeenInTheClientQueues: where mysqld's client connections hold
// its answers unacknowledged, a slowed link is named first within 10 s
// though no session waits in a network state and the idle transactions stay
// within the normal's; one client reading a large result slowly (a full
// send buffer on one connection) opens nothing.
func TestSlowLinkSeenInTheClientQueues(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			tr, s := New(DefaultConfig()), newSim(31, step)
			s.fault, s.faultAt = func(smp *sample) { smp.clients = lanClients(s) }, epoch
			noOnset(t, tr, s, 20*time.Minute, "in the normal")
			began := s.now.Add(time.Nanosecond)
			s.fault, s.faultAt = func(smp *sample) { slowLink(s, smp) }, began
			namedFirst(t, tr, s, began, snapshot.CauseNetwork)
		})
	}
	tr, s := New(DefaultConfig()), newSim(31, time.Second)
	s.fault, s.faultAt = func(smp *sample) { smp.clients = lanClients(s) }, epoch
	noOnset(t, tr, s, 20*time.Minute, "in the normal")
	s.fault, s.faultAt = func(smp *sample) {
		smp.clients = lanClients(s)
		smp.clients.Sending++
		smp.clients.SendBytes += 4 << 20
	}, s.now
	noOnset(t, tr, s, time.Minute, "with one client reading a large result slowly")
}
