package fleet_test

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcSetting is a garbage collector setting a steady fleet runs under:
// GOGC, and a soft memory limit of base heap plus limitPerMember each
// (0: none).
type gcSetting struct {
	name           string
	gogc           int
	limitPerMember int64
}

var gcSettings = []gcSetting{
	{"gogc50", 50, 0},
	{"gogc50-limit0.9MB", 50, 900 << 10},
	{"gogc100-limit1MB", 100, 1 << 20},
	{"gogc100", 100, 0},
}

// BenchmarkFleetSteadyGC is what a full-window fleet costs the collector
// under each gcSetting: collections per second of the fleet's ticks (one
// tick of every member), the peak heap in use and the heap held from the
// system (what RSS follows), sampled after every such second.
//
//	go test -run XXX -bench FleetSteadyGC -benchtime 1x ./fleet/
func BenchmarkFleetSteadyGC(b *testing.B) {
	ticks := loadTicks(b, memberRecordings[0])
	for _, g := range gcSettings {
		b.Run(g.name, func(b *testing.B) {
			for range b.N {
				runSteadyGC(b, ticks, g)
			}
		})
	}
}

func runSteadyGC(b *testing.B, ticks *recordedTicks, g gcSetting) {
	steadyBuilders = nil
	base := liveHeap()
	defer debug.SetGCPercent(debug.SetGCPercent(g.gogc))
	if g.limitPerMember > 0 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(base) + g.limitPerMember*fleetMembers))
	}
	builders, feeds := steadyFleetFeeds(ticks)
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	gcs, gcCPU := m.NumGC, m.GCCPUFraction
	var peakInuse, peakHeld uint64
	start := time.Now()
	const seconds = 300
	for range seconds {
		for i, bl := range builders {
			bl.Add(feeds[i].next())
		}
		runtime.ReadMemStats(&m)
		peakInuse = max(peakInuse, m.HeapInuse)
		peakHeld = max(peakHeld, m.HeapSys-m.HeapReleased)
	}
	b.ReportMetric(float64(m.NumGC-gcs)/seconds, "GCs/fleet-s")
	b.ReportMetric(float64(time.Since(start).Microseconds())/seconds/fleetMembers, "µs/tick")
	b.ReportMetric(m.GCCPUFraction-gcCPU, "ΔGC-CPU-fraction")
	b.ReportMetric(float64(peakInuse-base)/fleetMembers/1e3, "peak-inuse-kB/member")
	b.ReportMetric(float64(peakHeld-base)/fleetMembers/1e3, "peak-held-kB/member")
	b.ReportMetric(float64(liveHeap()-base)/fleetMembers/1e3, "live-kB/member")
	b.ReportMetric(float64(base)/1e6, "base-MB")
	steadyBuilders = builders
}
