package collectors

import (
	"context"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// BenchmarkSampleTick measures the database part of one tick against an idle
// local MariaDB: status, processlist and the collectors due that tick.
func BenchmarkSampleTick(b *testing.B) {
	srv, err := sharedServerErr()
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := rootOptions(srv).Config()
	if err != nil {
		b.Fatal(err)
	}
	l, err := NewLive(LiveOptions{Config: cfg, Interval: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	if err := l.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := &snapshot.Snapshot{Time: time.Now(), Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
		tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		l.sampleDB(tctx, s)
		cancel()
		if s.Status == nil || s.Server.Unreachable {
			b.Fatalf("tick failed: %+v", s.Collectors)
		}
		l.prev = s
	}
}
