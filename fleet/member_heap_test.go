package fleet_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/analyzers"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// memberRecordings are the servers a simulated fleet's members play, one
// fleet each: a busy small server, 1,000 connections, a replica.
var memberRecordings = []string{
	"../analyzers/testdata/healthy/dump-under-load.mytop",
	"../analyzers/testdata/healthy/long-polls-1000-connections.mytop",
	"../analyzers/testdata/healthy/replica-catch-up.mytop",
}

const (
	fleetMembers = 20
	// steadyTicks fills the analyzers' five-minute window and turns it over.
	steadyTicks = 330
)

// BenchmarkMemberSteadyHeap is what one `serve` member holds once its
// window is full (the fleet-cost work: 100 of them in 200 MB), without 100 servers:
// fleetMembers builders as liveBuilder makes them, each fed steadyTicks
// recorded ticks, and the live heap after a collection, less what the
// recordings themselves hold, per member. Run it once:
//
//	go test -run XXX -bench MemberSteadyHeap -benchtime 1x ./fleet/
func BenchmarkMemberSteadyHeap(b *testing.B) {
	for _, p := range memberRecordings {
		b.Run(strings.TrimSuffix(filepath.Base(p), ".mytop"), func(b *testing.B) {
			ticks := loadTicks(b, p)
			for range b.N {
				steadyBuilders = nil
				base := liveHeap()
				steadyBuilders = steadyFleet(ticks)
				alloc := liveHeap()
				b.ReportMetric(float64(alloc-base)/fleetMembers, "heap-B/member")
				b.ReportMetric(float64(alloc-base)/fleetMembers*100/1e6, "heap-MB/100members")
			}
		})
	}
}

// steadyBuilders keeps the last fleet alive past the benchmark, for
// -memprofile, which is written when every benchmark has returned.
var steadyBuilders []*pipeline.Builder

// steadyFleet feeds every member steadyTicks ticks, one tick of each member
// in turn as the fleet's goroutines would.
func steadyFleet(ticks *recordedTicks) []*pipeline.Builder {
	builders, feeds := steadyFleetFeeds(ticks)
	for _, f := range feeds {
		f.last = nil // the status reader's last map is the newest frame's
	}
	return builders
}

// steadyFleetFeeds is steadyFleet with each member's feed, to go on with.
func steadyFleetFeeds(ticks *recordedTicks) ([]*pipeline.Builder, []*tickFeed) {
	builders := make([]*pipeline.Builder, fleetMembers)
	feeds := make([]*tickFeed, fleetMembers)
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for i := range builders {
		builders[i] = pipeline.NewBuilder(snapshot.ModeLive, analyzers.NewEngine(analyzers.DefaultConfig()))
		feeds[i] = &tickFeed{from: ticks, start: start}
	}
	for range steadyTicks {
		for i, b := range builders {
			b.Add(feeds[i].next())
		}
	}
	return builders, feeds
}

func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
