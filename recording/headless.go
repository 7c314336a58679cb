package recording

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Headless is what the record command feeds: a new recording, the
// --keep-around filter in front of it when asked for, and the progress line
// on a terminal.
type Headless struct {
	w    *Writer
	sink FrameWriter
	keep *keepAround
	p    *progress
}

// CreateHeadless creates the recording at once, so an existing file is
// refused (unless opts.Append) before anything connects and nothing is
// half-done. keepAround 0 keeps every frame whole.
func CreateHeadless(path string, opts WriterOptions, keepAround time.Duration) (*Headless, error) {
	w, err := Create(path, opts)
	if err != nil {
		return nil, err
	}
	h := &Headless{w: w, sink: w}
	if keepAround != 0 {
		if h.keep, err = newKeepAround(w, keepAround, 0); err != nil {
			w.Close()
			return nil, err
		}
		h.sink = h.keep
	}
	return h, nil
}

// Start returns the frames' way in: each is recorded and counted on the
// progress line (on w); on a value from status (SIGUSR1) the recorder's own
// health gets a line of its own.
func (h *Headless) Start(w io.Writer, status <-chan os.Signal) func(*snapshot.Frame) error {
	h.p = newProgress(w, h.w)
	return func(f *snapshot.Frame) error {
		if err := h.sink.Write(f); err != nil {
			return fmt.Errorf("recording: %w", err)
		}
		h.p.Frame(f)
		select {
		case <-status:
			h.p.Status()
		default:
		}
		return nil
	}
}

// Finish ends a run that ended with err: the filter's held frames are
// written and the final progress line printed. A run cancelled or timed out
// (a signal, --duration) ended well, and then the filter's error is the one
// returned.
func (h *Headless) Finish(err error) error {
	var cerr error
	if h.keep != nil {
		cerr = h.keep.Close()
	}
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		err = cerr
	}
	if h.p != nil {
		h.p.Done()
	}
	return err
}

// Close closes the file.
func (h *Headless) Close() error { return h.w.Close() }
