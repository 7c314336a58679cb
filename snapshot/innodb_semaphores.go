package snapshot

import "strings"

// parse reads the SEMAPHORES section (and RW-LATCH INFO, which debug builds
// print in its middle, so the wait array may continue there). Spin and OS
// wait counters of mutexes and every rw-lock kind are summed.
func (m *InnoDBSemaphores) parse(body string) {
	m.Present = true
	for line := range lines(body) {
		switch {
		case strings.HasPrefix(line, "OS WAIT ARRAY INFO:"):
			setInt(&m.ReservationCount, line, "reservation count ")
			setInt(&m.SignalCount, line, "signal count ")
		case strings.HasPrefix(line, "--Thread ") && strings.Contains(line, " has waited at "):
			m.Waits++
			if v, ok := floatBefore(line, " seconds the semaphore"); ok && v > m.LongestWaitSeconds {
				m.LongestWaitSeconds = v
			}
		case strings.HasPrefix(line, "Mutex spin waits "), strings.HasPrefix(line, "RW-"):
			m.addSpinCounters(line)
		}
	}
}

// addSpinCounters reads "Mutex spin waits N, rounds N, OS waits N",
// "RW-excl spins N, rounds N, OS waits N" and the pre-5.5.17 form
// "RW-shared spins N, OS waits N; RW-excl spins N, OS waits N".
func (m *InnoDBSemaphores) addSpinCounters(line string) {
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
