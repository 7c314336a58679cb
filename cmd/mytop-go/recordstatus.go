package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

// selfStatus prints the recorder's own health on SIGUSR1, as dd does: frames,
// file size, goroutines and heap. A recorder left running for days can be
// asked whether it is growing without a debug port, and scripts/soak.sh
// reads its goroutines this way.
type selfStatus struct {
	sig chan os.Signal
}

func newSelfStatus() *selfStatus {
	s := &selfStatus{sig: make(chan os.Signal, 1)}
	signal.Notify(s.sig, syscall.SIGUSR1)
	return s
}

// poll prints the line if the signal came since the last frame; it runs on
// the pipeline's goroutine, so it reads the progress without locks.
func (s *selfStatus) poll(w io.Writer, p *progress) {
	select {
	case <-s.sig:
	default:
		return
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Fprintf(w, "\rstatus %s: %d frames, %s, goroutines %d, heap %.1f MB, from the OS %.1f MB\x1b[K\n",
		p.rec.Path(), p.frames, humanBytes(p.rec.Size()), runtime.NumGoroutine(),
		float64(m.HeapAlloc)/(1<<20), float64(m.Sys)/(1<<20))
}

func (s *selfStatus) stop() { signal.Stop(s.sig) }
