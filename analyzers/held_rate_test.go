package analyzers

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// hover runs a signal on a clock that stops every fourth second: the rate
// falls to nothing for that second and resumes, above its line three
// quarters of the time.
func hover(h heldSignal) edit {
	return clockOf(func(i int) int { return i - (i+1)/4 }, h)
}

// flap stops the clock every other second: above the line half the time.
func flap(h heldSignal) edit {
	return clockOf(func(i int) int { return (i + 1) / 2 }, h)
}

func clockOf(tick func(int) int, h heldSignal) edit {
	return func(i int, s *snapshot.Snapshot) {
		for _, e := range h.on {
			e(tick(i), s)
		}
		if h.dip != nil && i > 0 && tick(i) == tick(i-1) {
			h.dip(i, s)
		}
	}
}

// heldSignal is a load well above a rule's line (its table test's own); dip
// is what a stopped second also shows besides counters standing still (a
// gauge falling), and averaged marks a rule that judges its own mean over a
// span, which a flap at twice the line rightly raises.
type heldSignal struct {
	on       []edit
	dip      edit
	averaged bool
}

// heldSignals is the signal of every rule that holds a rate.
func heldSignals() map[string]heldSignal {
	idleQueue := func(_ int, s *snapshot.Snapshot) { hostOf(s).ProcsRunning = 1 }
	sig := func(es ...edit) heldSignal { return heldSignal{on: es} }
	return map[string]heldSignal{
		IDTmpDiskTables:   sig(counters(map[string]float64{tmpTables: 60, tmpDisk: 20})),
		IDSortMergePasses: sig(counters(map[string]float64{sortMerge: 12, "Sort_scan": 20, "Sort_range": 0})),
		IDLogBufferWaits:  sig(counter(logWaits, 0, 25)),
		IDBinlogCacheSpill: sig(counters(map[string]float64{blCacheUse: 200, blCacheDisk: 100}),
			vars("log_bin", "ON", "binlog_cache_size", "32768")),
		IDTableCacheThrash: sig(counters(map[string]float64{tcHits: 300, tcMisses: 25000, tcOverflows: 25000,
			tcOpened: 25000})),
		IDThreadCacheMiss:   sig(counters(map[string]float64{"Connections": 300, "Threads_created": 300})),
		IDReadAheadEvicted:  {on: []edit{counters(map[string]float64{raPages: 1000, raEvicted: 500})}, averaged: true},
		IDConnectionErrors:  sig(logins(340, 334, 334)),
		IDCPUSaturation:     {on: []edit{cpuLoad(4, 9, 5)}, dip: idleQueue},
		IDDiskSaturation:    sig(disk("sda", 90, 60, 400)),
		IDSwapping:          sig(swap(10, 120, 30)),
		IDBufferPoolMiss:    sig(bpLoad(10000, 1500)),
		IDCommitFsyncBound:  sig(flushAtCommit, commitLoad(1722, 449), flushingDisk("sda", 449, 2)),
		IDGaleraFlowControl: sig(pausedEach(0.8, 3, 3)),
		IDTableLockContention: sig(counters(map[string]float64{"Table_locks_immediate": 900,
			"Table_locks_waited": 100})),
		IDFullScanStorm: sig(statusOnly, scanLoad(36, 7.2e6, 40)),
	}
}

// TestHeldRateHovering: a rate that dips below its line one second in four
// (above it on average) raises within its hold, and a long hold stands at
// info meanwhile; one flapping across its line second by second never
// raises a warning. Every rule that holds a rate is listed.
func TestHeldRateHovering(t *testing.T) {
	signals := heldSignals()
	for _, r := range allRules() {
		if !r.held {
			continue
		}
		h, ok := signals[r.id]
		if !ok {
			t.Errorf("%s holds a rate: add its signal to heldSignals", r.id)
			continue
		}
		t.Run(r.id, func(t *testing.T) {
			cfg := DefaultConfig()
			hold := cfg.persistence(r.id).RaiseAfter
			secs := int(hold / time.Second)
			got := timeline(t, DefaultConfig(), series(secs+6, hover(h)), r.id)
			first := strings.IndexAny(got, "WC")
			// The first frame has no rates; a dip may land on the due frame.
			if first < 0 || first > secs+2 {
				t.Errorf("hovering: %s, want a warning by frame %d", got, secs+2)
			}
			if hold > heldInfoAfter && !strings.Contains(got[:max(first, 0)], "i") {
				t.Errorf("hovering: %s, want info while the %v hold runs", got, hold)
			}
			if got := timeline(t, DefaultConfig(), series(2*secs+6, flap(h)), r.id); !h.averaged && strings.ContainsAny(got, "WC") {
				t.Errorf("flapping: %s, want no warning", got)
			}
		})
	}
}
