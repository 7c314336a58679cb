package selfstat

import (
	"os"
	"runtime/debug"
	"testing"
)

// TuneGC sets the monitor's target, and leaves a GOGC the user set alone.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "200")
	TuneGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, TuneGC changed the target to %d", got)
	}
	os.Unsetenv("GOGC") // t.Setenv restores it
	TuneGC()
	if got := debug.SetGCPercent(100); got != monitorGCPercent {
		t.Errorf("target %d, want %d", got, monitorGCPercent)
	}
}
