package collectors

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// runningTarget samples l until a thread runs q and returns it as a kill
// dialog would have shown it.
func runningTarget(t *testing.T, l *Live, q string) snapshot.KillTarget {
	t.Helper()
	for i := 0; i < 20; i++ {
		s := next(t, l)
		if p, ok := threadRunning(s, q); ok {
			return snapshot.KillTargetOf(&snapshot.Frame{Snapshot: s, Mode: snapshot.ModeLive}, &p)
		}
	}
	t.Fatalf("%q never seen running", q)
	return snapshot.KillTarget{}
}
