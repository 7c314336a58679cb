package analyzers

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// nameWithin is how soon a DBA needs an incident named after its onset.
const nameWithin = 10 * time.Second

// namedInTime logs the finding a scenario raised and fails t when it came
// later than nameWithin after the onset.
func namedInTime(t *testing.T, f *snapshot.Finding, after time.Duration) {
	t.Helper()
	t.Logf("%s/%s after %.1f s: %s\n%v\n%s", f.ID, f.Severity, after.Seconds(), f.Title, f.Evidence, f.Advice)
	if after > nameWithin {
		t.Errorf("named after %.1f s, want within %s", after.Seconds(), nameWithin)
	}
}
