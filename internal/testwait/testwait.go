// Package testwait waits in tests for a condition another goroutine or
// process makes true.
package testwait

import (
	"testing"
	"time"
)

// Until polls cond every poll until it is true, and fails t when within
// passes first, saying what was awaited (what() is called only then).
func Until(t testing.TB, within, poll time.Duration, cond func() bool, what func() string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what())
		}
		time.Sleep(poll)
	}
}
