package busynormal

import (
	"context"
	"os"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Thin writes to dst the samples of the recording src at least every
// apart, through the pipeline as `record` writes them: the recording a
// monitor sampling every `every` would have made (counters are cumulative,
// so the rates are the same over the longer interval). A half-hour run at
// 1 s is 7 MB; at 2 s it is small enough to commit, and the baseline
// judges by time, not frames.
func Thin(src, dst string, every time.Duration) error {
	r, err := recording.Open(src)
	if err != nil {
		return err
	}
	defer r.Close()
	var keep []*snapshot.Snapshot
	var last time.Time
	for i := range r.Len() {
		s, err := r.Snapshot(i)
		if err != nil {
			return err
		}
		if last.IsZero() || s.Time.Sub(last) >= every-every/10 {
			keep, last = append(keep, s), s.Time
		}
	}
	os.Remove(dst)
	w, err := recording.Create(dst, recording.WriterOptions{Interval: every, Version: "busynormal"})
	if err != nil {
		return err
	}
	err = pipeline.Run(context.Background(), pipeline.NewSliceSource(keep), NewBuilder(snapshot.ModeLive), w.Write)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(dst, 0o644)
	}
	return err
}
