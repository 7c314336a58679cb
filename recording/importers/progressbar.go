package importers

import (
	"fmt"
	"io"
	"time"
)

// ProgressBar returns an Options.Progress that draws a bar on w once reading
// has taken more than a second: quick reads print nothing.
func ProgressBar(w io.Writer, label string) func(done, total int64) {
	start := time.Now()
	var drawn bool
	var last time.Time
	return func(done, total int64) {
		now := time.Now()
		if now.Sub(start) < time.Second || total <= 0 {
			return
		}
		if done < total && now.Sub(last) < 100*time.Millisecond {
			return
		}
		last, drawn = now, true
		const width = 30
		n := int(float64(width) * float64(done) / float64(total))
		n = min(max(n, 0), width)
		fmt.Fprintf(w, "\r%s [%-*s] %3.0f%%", label, width, bar(n), 100*float64(done)/float64(total))
		if done >= total && drawn {
			fmt.Fprintln(w)
		}
	}
}

func bar(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '='
	}
	return string(b)
}
