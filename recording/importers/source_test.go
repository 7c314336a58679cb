package importers

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

func TestSessionSource(t *testing.T) {
	s := importRelative(t)
	src := s.Source()
	ctx := context.Background()
	for i := range s.Snapshots {
		got, err := src.Next(ctx)
		if err != nil || got != s.Snapshots[i] {
			t.Fatalf("Next %d = %v, %v", i, got, err)
		}
	}
	if _, err := src.Next(ctx); err != io.EOF {
		t.Errorf("after the last snapshot: %v, want io.EOF", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Source().Next(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestProgressReachesTotal(t *testing.T) {
	st, err := os.Stat(relativeFile)
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	var done, total int64
	opts := Options{Start: time.Unix(0, 0), Progress: func(d, tot int64) { calls, done, total = calls+1, d, tot }}
	if _, err := Import(relativeFile, opts); err != nil {
		t.Fatal(err)
	}
	if calls < 2 || done != st.Size() || total != st.Size() {
		t.Errorf("%d calls, last %d of %d; file has %d bytes", calls, done, total, st.Size())
	}
}
