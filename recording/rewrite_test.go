package recording

import (
	"flag"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/snaptest"
)

var (
	rewrite      = flag.String("rewrite", "", "write this recording's snapshots again with this build and print the file's growth")
	rewriteLoops = flag.Int("rewrite-loops", 5, "with -rewrite, append the frames after the first 30 this many more times")
)

// TestRewrite answers "what does this build's file cost for the same
// frames?": bench/recording-size.sh's runs differ in churn more than a
// format change does, so a before/after is measured by writing one
// recording's snapshots with each build. It writes every snapshot of
// -rewrite FILE through a Writer (rates from consecutive snapshots, no
// findings), then the frames after the first 30 again -rewrite-loops times,
// later in time, for a run long enough that whole pages do not blur the
// figure; it prints the growth after frame 30 as the script does. Run with
// `go test ./recording -run TestRewrite -rewrite FILE -v`.
func TestRewrite(t *testing.T) {
	if *rewrite == "" {
		t.Skip("needs -rewrite FILE")
	}
	const mark = 30
	r := openT(t, *rewrite)
	if r.Len() <= mark {
		t.Fatalf("%d frames: need more than %d", r.Len(), mark)
	}
	var order, pass []int
	for i := range r.Len() {
		order, pass = append(order, i), append(pass, 0)
	}
	for p := 1; p <= *rewriteLoops; p++ {
		for i := mark; i < r.Len(); i++ {
			order, pass = append(order, i), append(pass, p)
		}
	}
	first, last := r.TimeRange()
	span := last.Sub(first) + time.Second
	w, err := Create(filepath.Join(t.TempDir(), "rewrite.mytop"), WriterOptions{Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var frames snaptest.Framer
	var atMark int64
	for i, k := range order {
		s, err := r.Snapshot(k)
		if err != nil {
			t.Fatal(err)
		}
		s.Time = s.Time.Add(time.Duration(pass[i]) * span)
		if err := w.Write(frames.Next(s)); err != nil {
			t.Fatal(err)
		}
		if i == mark-1 {
			atMark = w.Size()
		}
	}
	grown, n := w.Size()-atMark, len(order)-mark
	fmt.Printf("%d frames: file %.2f MB/h whole, %.2f MB/h marginal after %d (%d B)\n", len(order),
		float64(w.Size())/float64(len(order))*3600/1e6, float64(grown)/float64(n)*3600/1e6, mark, grown)
}
