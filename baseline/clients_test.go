package baseline

import (
	"slices"
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
	linkAt(smp, 0.2, 0.17, &snapshot.ClientQueues{Connections: 1065, Sending: 18 + s.rng.IntN(8), SendBytes: 600e3})
}

// linkAt is a link passing share of the normal's requests and tx of its
// bytes, with the clients' queues as given.
func linkAt(smp *sample, share, tx float64, clients *snapshot.ClientQueues) {
	for _, k := range []string{"Questions", "Com_insert", "Com_update", "Com_delete", "Com_commit", "Innodb_rows_read",
		"Handler_read_rnd_next", "Bytes_sent", "Bytes_received", "Innodb_data_written"} {
		smp.rates[k] *= share
	}
	smp.txB *= tx
	smp.clients = clients
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

// mildlySlowLink is a link slowed less than slowLink's: a third fewer
// requests and bytes, a few answers waiting on the clients' connections.
func mildlySlowLink(s *sim, smp *sample) {
	linkAt(smp, 0.6, 0.6, &snapshot.ClientQueues{Connections: 1065, Sending: 6 + s.rng.IntN(3), SendBytes: 150e3})
}

// TestLockWaitsBehindASlowLinkAreItsEffect: a slowed link keeps each
// client's transaction open across its round trips, holding its row
// locks, so the time sessions wait on rows climbs a few seconds after the
// link is named (14 s a second against none, 21 sessions waiting, in the
// busy-normal family's run), within one wave of it and further than the
// link's own signals moved, and peaks higher still as the link recovers
// and the held-up clients catch up, their queues already empty (20 s a
// second, 26 waiting). The ROOT CAUSE stays the link, through the
// episode's end.
func TestLockWaitsBehindASlowLinkAreItsEffect(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 2 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			tr, s := New(DefaultConfig()), newSim(37, step)
			// The family's normal: its sessions seldom wait on a row.
			fewLockWaits := func(smp *sample) {
				smp.rates["Innodb_row_lock_time"] = s.rng.Float64()
				smp.rates["Innodb_row_lock_waits"] = s.rng.Float64()
				smp.gauges["Innodb_row_lock_current_waits"] = float64(s.rng.IntN(2))
				smp.procs[1].n = s.rng.IntN(2)
				smp.gauges["Threads_running"] = 1 + s.rng.Float64()
				smp.idleTrx = 0
			}
			rowWaits := func(smp *sample, msPerS float64, waiting int) {
				smp.rates["Innodb_row_lock_time"] = msPerS
				smp.rates["Innodb_row_lock_waits"] = 190
				smp.gauges["Innodb_row_lock_current_waits"] = float64(waiting)
				smp.gauges["Threads_running"] = float64(waiting + 7)
				smp.procs[1].n, smp.rowWaiting = waiting+1, waiting
			}
			s.fault, s.faultAt = func(smp *sample) { smp.clients = lanClients(s); fewLockWaits(smp) }, epoch
			noOnset(t, tr, s, 20*time.Minute, "in the normal")
			began := s.now.Add(time.Nanosecond)
			locksFrom, recovered, caughtUp := began.Add(8*time.Second), began.Add(30*time.Second), began.Add(40*time.Second)
			s.fault, s.faultAt = func(smp *sample) {
				fewLockWaits(smp)
				switch {
				case s.now.Before(locksFrom):
					mildlySlowLink(s, smp)
				case s.now.Before(recovered):
					mildlySlowLink(s, smp)
					rowWaits(smp, 14000, 21)
				case s.now.Before(caughtUp):
					smp.clients = lanClients(s)
					rowWaits(smp, 20000, 26)
				default:
					smp.clients = lanClients(s)
				}
			}, began
			namedAndKept(t, tr, s, began, 90*time.Second, snapshot.CauseNetwork)
		})
	}
}

// namedAndKept runs the sim for span after a fault began and fails t unless
// cause is named first within 10 s of it and is still first in the last
// frame whose episode holds it: what a report's ROOT CAUSE line says once
// the episode is over.
func namedAndKept(t *testing.T, tr *Tracker, s *sim, began time.Time, span time.Duration, cause string) {
	t.Helper()
	var named time.Duration
	var kept *snapshot.Onset
	run(tr, s, span, func(f *snapshot.Frame) {
		if len(f.Onsets) == 0 {
			return
		}
		if named == 0 && f.Onsets[0].Cause == cause {
			named = f.Time().Sub(began)
		}
		if slices.ContainsFunc(f.Onsets, func(o snapshot.Onset) bool { return o.Cause == cause }) {
			kept = &f.Onsets[0]
		}
	})
	if named == 0 || named > 10*time.Second+s.step/4 {
		t.Errorf("%s named first after %s, want within 10 s", cause, named)
	}
	if kept == nil || kept.Cause != cause {
		t.Errorf("by the episode's end the first cause is %+v, want %q", kept, cause)
	}
}
