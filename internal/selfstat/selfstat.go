// Package selfstat describes mytop-go's own health in one line: goroutines,
// Go heap and the memory Go holds from the OS. Both the recorder and the
// dashboard show it on SIGUSR1, so a monitor left running for days can be
// asked whether it is growing without a debug port (scripts/soak.sh does).
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
