package parse

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// parseSemaphores reads the SEMAPHORES section (and RW-LATCH INFO, which debug builds
// print in its middle, so the wait array may continue there). Spin and OS
// wait counters of mutexes and every rw-lock kind are summed.
func parseSemaphores(m *snapshot.InnoDBSemaphores, body string) {
	m.Present = true
	var cur *snapshot.InnoDBSemaphoreWait // the wait entry whose detail lines follow
	for line := range lines(body) {
		switch {
		case strings.HasPrefix(line, "OS WAIT ARRAY INFO:"):
			setInt(&m.ReservationCount, line, "reservation count ")
			setInt(&m.SignalCount, line, "signal count ")
			cur = nil
		case strings.HasPrefix(line, "--Thread ") && strings.Contains(line, " has waited at "):
			m.Waits++
			cur = addWait(m, line)
		case strings.HasPrefix(line, "Mutex spin waits "), strings.HasPrefix(line, "RW-"):
			addSpinCounters(m, line)
			cur = nil
		case cur != nil:
			waitDetail(cur, line)
		}
	}
}

// addWait records one "--Thread … has waited at" line and returns the entry
// its detail lines fill, nil once WaitList is full.
func addWait(m *snapshot.InnoDBSemaphores, line string) *snapshot.InnoDBSemaphoreWait {
	w := parseSemaphoreWait(line)
	m.LongestWaitSeconds = max(m.LongestWaitSeconds, w.Seconds)
	if len(m.WaitList) == maxSemaphoreWaits {
		return nil
	}
	m.WaitList = append(m.WaitList, w)
	return &m.WaitList[len(m.WaitList)-1]
}

// addSpinCounters reads "Mutex spin waits N, rounds N, OS waits N",
// "RW-excl spins N, rounds N, OS waits N" and the pre-5.5.17 form
// "RW-shared spins N, OS waits N; RW-excl spins N, OS waits N".
func addSpinCounters(m *snapshot.InnoDBSemaphores, line string) {
	for part := range strings.SplitSeq(line, ";") {
		if v, ok := intAfter(part, "spin waits "); ok {
			m.SpinWaits += v
		} else if v, ok := intAfter(part, " spins "); ok {
			m.SpinWaits += v
		}
		if v, ok := intAfter(part, "rounds "); ok {
			m.SpinRounds += v
		}
		if v, ok := intAfter(part, "OS waits "); ok {
			m.OSWaits += v
		}
	}
}
