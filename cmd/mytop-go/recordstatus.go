package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mytop-go/mytop-go/internal/selfstat"
)

// selfStatus prints the recorder's own health on SIGUSR1, as dd does: frames,
// file size and selfstat.Line.
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
	fmt.Fprintf(w, "\rstatus %s: %d frames, %s, %s\x1b[K\n",
		p.rec.Path(), p.frames, humanBytes(p.rec.Size()), selfstat.Line())
}

func (s *selfStatus) stop() { signal.Stop(s.sig) }
