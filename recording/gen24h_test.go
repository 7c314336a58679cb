package recording

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
)

var (
	gen24h    = flag.Bool("gen24h", false, "build a 24 h recording of 100 busy connections and print its figures")
	genHours  = flag.Float64("gen-hours", 24, "hours to record with -gen24h")
	genOutput = flag.String("gen-out", "", "keep the generated recording at this path")
	genChurn  = flag.Float64("gen-churn", 1, "scale the statement and connection churn (1: ~20 new statements/s)")
)

// TestGenerate24h measures the format at scale: file size per hour, open
// time, seek to a random moment, and one step forward. Run with
// `go test ./recording -run TestGenerate24h -gen24h -v -timeout 2h`.
func TestGenerate24h(t *testing.T) {
	if !*gen24h {
		t.Skip("needs -gen24h")
	}
	path := *genOutput
	if path == "" {
		path = filepath.Join(t.TempDir(), "24h.mytop")
	}
	frames := int(*genHours * 3600)
	start := time.Now()
	w, err := Create(path, WriterOptions{Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 24, 100)
	srv.churn = *genChurn
	var raw int64
	for i := range frames {
		f := srv.frame(i)
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
		if b, err := frameJSON(f.Snapshot); err == nil {
			raw += int64(len(b))
		}
		if (i+1)%3600 == 0 {
			fmt.Printf("hour %2d: %6.1f MB written, %v elapsed\n", (i+1)/3600, float64(w.Size())/1e6, time.Since(start).Round(time.Second))
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	size := testfiles.Size(path)
	hours := float64(frames) / 3600
	fmt.Printf("%d frames in %v (%.2f ms/frame)\n", frames, time.Since(start).Round(time.Second),
		float64(time.Since(start).Milliseconds())/float64(frames))
	fmt.Printf("raw JSON %.1f MB/h; file %.1f MB = %.2f MB/h (%.0f B/frame)\n",
		float64(raw)/1e6/hours, float64(size)/1e6, float64(size)/1e6/hours, float64(size)/float64(frames))
	measureReading(t, path)
}

func measureReading(t *testing.T, path string) {
	t0 := time.Now()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fmt.Printf("open: %v (%d frames)\n", time.Since(t0).Round(time.Millisecond), r.Len())
	first, last := r.TimeRange()
	rng := rand.New(rand.NewPCG(1, 2))
	var worstSeek, worstStep, sumSeek, sumStep time.Duration
	const trials = 20
	for range trials {
		at := first.Add(time.Duration(rng.Int64N(int64(last.Sub(first)))))
		r.cache = decodeCache{} // a seek elsewhere: nothing cached helps
		t1 := time.Now()
		i := r.Seek(at)
		if _, err := r.Snapshot(i); err != nil {
			t.Fatal(err)
		}
		seek := time.Since(t1)
		t2 := time.Now()
		if _, err := r.Snapshot(min(i+1, r.Len()-1)); err != nil {
			t.Fatal(err)
		}
		step := time.Since(t2)
		worstSeek, worstStep = max(worstSeek, seek), max(worstStep, step)
		sumSeek, sumStep = sumSeek+seek, sumStep+step
	}
	fmt.Printf("seek to a random moment: mean %v, worst %v (target < 100ms)\n", (sumSeek / trials).Round(time.Microsecond), worstSeek.Round(time.Microsecond))
	fmt.Printf("step one frame: mean %v, worst %v (target < 20ms)\n", (sumStep / trials).Round(time.Microsecond), worstStep.Round(time.Microsecond))
}
