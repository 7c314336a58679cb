package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestToolCaughtNowAndThenIsRunning: a restore whose statements are
// shorter than the sampling interval, each file loaded on a connection of
// its own, is caught in one frame of three; it is routine work running all
// along, named first within 10 s.
func TestToolCaughtNowAndThenIsRunning(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 2 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			tr, s := warm(41, step)
			began := s.now.Add(time.Nanosecond)
			s.fault, s.faultAt = func(smp *sample) {
				smp.rates["Bytes_received"] += 12e6
				smp.rates["Innodb_data_written"] += 30e6
				smp.writeB += 40e6
				if s.seq%3 == 0 {
					id := int64(9000 + s.seq)
					smp.routine = []Routine{{ID: id, Tool: "a restore of a dump", Doing: "loading restored.sbtest4"}}
					smp.procs = append(smp.procs, procSpec{n: 1, user: "root", host: "localhost", state: "Update",
						query: "INSERT INTO `sbtest4` VALUES (1,2,'c','p'),(2,3,'c','p')"})
				}
			}, began
			namedFirst(t, tr, s, began, snapshot.CauseRoutine)
		})
	}
}

// warm is a tracker after 20 minutes of the sim's busy normal.
func warm(seed uint64, step time.Duration) (*Tracker, *sim) {
	tr, s := New(DefaultConfig()), newSim(seed, step)
	run(tr, s, 20*time.Minute, nil)
	return tr, s
}
