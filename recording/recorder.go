package recording

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// frameWriter is what the live recorder needs of a recording.Writer.
type frameWriter interface {
	Write(f *snapshot.Frame) error
	MarkGap(from, to time.Time, reason string) error
	Size() int64
	Close() error
}

// LiveRecorder records the live session while the user wants it: from the
// start with --record, and on and off with the R key. The frames goroutine
// writes while the UI goroutine toggles, so all state is behind mu; the
// writer itself is only ever used under mu, one call at a time.
type LiveRecorder struct {
	mu   sync.Mutex
	w    frameWriter // nil while not recording
	path string      // the file being written, or the last one
	size int64
	// fixed is --record's file: R resumes it rather than starting a new one.
	fixed string
	// dir is where R creates files when there is no fixed one.
	dir string
	// gapFrom is the last frame written before a pause of a resumed file.
	gapFrom, lastFrame time.Time
	failed             error // why recording stopped on its own
	create             func(path string, appendTo bool) (frameWriter, error)
	now                func() time.Time
}

// NewLiveRecorder records with opts to fixed, or to a new file named after
// the time in the current directory when fixed is empty.
func NewLiveRecorder(fixed string, opts WriterOptions) *LiveRecorder {
	return &LiveRecorder{
		fixed: fixed,
		now:   time.Now,
		create: func(path string, appendTo bool) (frameWriter, error) {
			o := opts
			o.Append = appendTo
			return Create(path, o)
		},
	}
}

// Toggle starts or stops recording; the ui's R key.
func (r *LiveRecorder) Toggle() (string, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w != nil {
		err := r.stop()
		return r.path, false, err
	}
	err := r.start()
	return r.path, r.w != nil, err
}

func (r *LiveRecorder) start() error {
	path, resume := r.fixed, r.fixed != "" && r.path == r.fixed
	if path == "" {
		path = freshName(r.dir, r.now())
	}
	w, err := r.create(path, resume)
	if err != nil {
		return err
	}
	r.w, r.path, r.size, r.failed = w, path, w.Size(), nil
	r.gapFrom = time.Time{}
	if resume {
		r.gapFrom = r.lastFrame
	}
	return nil
}

// stop closes the file, so it is complete and can be copied at once.
func (r *LiveRecorder) stop() error {
	r.size = r.w.Size()
	err := r.w.Close()
	r.w = nil
	return err
}

// Status reports the file, its size and whether frames go to it now.
func (r *LiveRecorder) Status() (string, int64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.path, r.size, r.w != nil
}

// Write stores f when recording. A failed write (disk full) stops recording
// rather than the dashboard; the reason is kept for Close.
func (r *LiveRecorder) Write(f *snapshot.Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.w == nil {
		return
	}
	err := r.markPause(f.Snapshot.Time)
	if err == nil {
		err = r.w.Write(f)
	}
	if err != nil {
		r.failed = fmt.Errorf("recording to %s stopped: %w", r.path, err)
		r.stop()
		return
	}
	r.lastFrame, r.size = f.Snapshot.Time, r.w.Size()
}

// markPause marks the time recording was off in a resumed file, so replay
// and report do not take it for a stretch of missing samples.
func (r *LiveRecorder) markPause(next time.Time) error {
	if r.gapFrom.IsZero() {
		return nil
	}
	from := r.gapFrom
	r.gapFrom = time.Time{}
	return r.w.MarkGap(from, next, "recording paused")
}

// Close ends recording at exit and returns why it stopped early, if it did.
func (r *LiveRecorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var err error
	if r.w != nil {
		err = r.stop()
	}
	return errors.Join(r.failed, err)
}

// freshName is mytop-go-YYYYmmdd-HHMMSS.mytop in dir, with a -2, -3 …
// suffix when R is pressed again within the same second.
func freshName(dir string, now time.Time) string {
	base := filepath.Join(dir, "mytop-go-"+now.Format("20060102-150405"))
	path := base + ".mytop"
	for i := 2; fileExists(path); i++ {
		path = fmt.Sprintf("%s-%d.mytop", base, i)
	}
	return path
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
