// Package selfstat is mytop-go's own cost: its health in one line (goroutines,
// Go heap and the memory Go holds from the OS), which the recorder and the
// dashboard show on SIGUSR1, so a monitor left running for days can be
// asked whether it is growing without a debug port (scripts/soak.sh does), and
// the garbage collector's target while it samples a server (TuneGC).
package selfstat

import (
	"fmt"
	"runtime"
)

// Line reads the runtime's figures now. ReadMemStats stops the world for
// microseconds; it is meant for a signal, not for every tick.
func Line() string {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return fmt.Sprintf("goroutines %d, heap %.1f MB, from the OS %.1f MB",
		runtime.NumGoroutine(), float64(m.HeapAlloc)/(1<<20), float64(m.Sys)/(1<<20))
}
