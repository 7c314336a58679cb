package recording

import (
	"fmt"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/internal/selfstat"
	"github.com/mytop-go/mytop-go/snapshot"
)

// progress is a headless recorder's line on a terminal, rewritten in place:
// frames, size, elapsed, and whether the server answers.
type progress struct {
	w      io.Writer
	rec    *Writer
	start  time.Time
	frames int
	last   time.Time
}

// newProgress reports on w what rec has written.
func newProgress(w io.Writer, rec *Writer) *progress {
	return &progress{w: w, rec: rec, start: time.Now()}
}

// Frame counts f and rewrites the line at most once a second.
func (p *progress) Frame(f *snapshot.Frame) {
	p.frames++
	if time.Since(p.last) < time.Second {
		return
	}
	p.last = time.Now()
	state := "ok"
	if f.Snapshot.Server.Unreachable {
		state = "server not answering: " + f.Snapshot.Server.Error
	}
	fmt.Fprintf(p.w, "\rrecording %s: %d frames, %s, %s elapsed, %s\x1b[K",
		p.rec.Path(), p.frames, HumanBytes(p.rec.Size()), time.Since(p.start).Round(time.Second), state)
}

// Done prints the final line.
func (p *progress) Done() {
	fmt.Fprintf(p.w, "\rrecorded %s: %d frames, %s in %s\x1b[K\n",
		p.rec.Path(), p.frames, HumanBytes(p.rec.Size()), time.Since(p.start).Round(time.Second))
}

// Status prints the recorder's own health on a line of its own, as dd does
// on SIGUSR1: frames, file size and selfstat.Line.
func (p *progress) Status() {
	fmt.Fprintf(p.w, "\rstatus %s: %d frames, %s, %s\x1b[K\n",
		p.rec.Path(), p.frames, HumanBytes(p.rec.Size()), selfstat.Line())
}

// HumanBytes is a file size for people: 3.2 MB.
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
