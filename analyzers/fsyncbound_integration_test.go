package analyzers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// syncWriters keeps the device under dir busy with cache flushes: n loops,
// each rewriting one 16 KiB block of its own file and fsyncing it, as a
// backup, a log shipper or a neighbour database on the same disk would.
// Each flush the redo log asks for then waits behind theirs. The loops end
// when ctx does; the caller waits on the returned WaitGroup. Their files are
// in the server's datadir, removed with it.
func syncWriters(t *testing.T, ctx context.Context, dir string, n, size int) (*sync.WaitGroup, *int64) {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total int64
	block := make([]byte, size)
	for i := range n {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("neighbour-%d", i)), os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer f.Close()
			var done int64
			for ctx.Err() == nil {
				if _, err := f.WriteAt(block, 0); err != nil {
					t.Errorf("neighbour write: %v", err)
					return
				}
				if err := f.Sync(); err != nil {
					t.Errorf("neighbour fsync: %v", err)
					return
				}
				done++
			}
			mu.Lock()
			total += done
			mu.Unlock()
		}()
	}
	return &wg, &total
}

// meanRate is the mean per-second rate of name over frames from the index
// from on (the first intervals after a change mix the two regimes).
func meanRate(frames []*snapshot.Frame, name string, from int) float64 {
	sum, n := 0.0, 0
	for i, f := range frames {
		if r, ok := f.Rates.Rate(name); ok && i >= from {
			sum, n = sum+r, n+1
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// meanRunQueuePerCPU is the host's mean run queue a CPU over frames[from:].
func meanRunQueuePerCPU(frames []*snapshot.Frame, from int) float64 {
	sum, n := 0.0, 0
	for _, f := range frames[max(from, 0):] {
		if h := f.Snapshot.Host; h != nil && h.NumCPU > 0 {
			sum, n = sum+float64(h.ProcsRunning)/float64(h.NumCPU), n+1
		}
	}
	return sum / float64(max(n, 1))
}

// TestIntegrationCommitFsyncBoundSlowFlushes: the warning tier's twin on
// the machine's own disk (the tier itself: ...SlowDisk below). This
// machine's virtual disk flushes in 0.04-0.4 ms, so 16 autocommit INSERT
// clients with innodb_flush_log_at_trx_commit=1 are often not bound by
// their fsyncs at all (=2 only 1.1x faster some days). Here a neighbour
// keeps the same device flushing (4 loops of write + fsync on files in the
// datadir's filesystem), so each redo fsync waits behind theirs: the
// commits become fsync-bound as on a disk without a write cache. The test
// measures =1 against =2 under the same neighbour and load, and holds the
// rule to naming it within 10 s when =2 is at least 2x faster, to no
// warning when it is under 1.5x; with =2 the rule must go and stay gone.
func TestIntegrationCommitFsyncBoundSlowFlushes(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--innodb-flush-log-at-trx-commit=1")
	testdb.Heavy(t) // 16 clients flat out and a disk neighbour; reads the host disk
	ordersTable(t, srv)
	w := newWorkload(t)
	ctx, stop := context.WithCancel(context.Background())
	var neighbours *sync.WaitGroup
	var flushed *int64
	t.Cleanup(func() {
		stop()
		if neighbours != nil {
			neighbours.Wait()
		}
	})
	c := noWarmup(DefaultConfig())
	var first, warn *snapshot.Finding
	var firstAfter, warnAfter time.Duration
	frames := watch(t, srv, within(60*time.Second), judged(c), withHost(&collectors.Host{}), until(func(f *snapshot.Frame) bool {
		if !w.startWhenWarm(f, c, func() {
			neighbours, flushed = syncWriters(t, ctx, srv.DataDir, 4, 16<<10)
			autocommitInserts(w, srv, 16, 0)
		}) {
			return false
		}
		after := f.Snapshot.Time.Sub(w.began)
		if x := findingIn(f, IDCommitFsyncBound); x != nil {
			if first == nil {
				first, firstAfter = x, after
			}
			if warn == nil && x.Severity >= snapshot.Warning {
				warn, warnAfter = x, after
			}
		}
		return time.Since(w.began) >= 12*time.Second
	})).frames
	ins1 := meanRate(frames, "Com_insert", len(frames)-8)
	fs1 := meanRate(frames, dataFsyncs, len(frames)-8)

	// The same load and neighbour with =2: what the fsyncs cost is the
	// commit rate gained.
	srv.Exec(t, "SET GLOBAL innodb_flush_log_at_trx_commit=2")
	var standing []string
	frames2 := watch(t, srv, within(30*time.Second), withHost(&collectors.Host{}), until(func(f *snapshot.Frame) bool {
		// The clear persistence (5 s) may hold the finding into the first
		// seconds of =2; after that it must be gone.
		if x := findingIn(f, IDCommitFsyncBound); x != nil && f.Seq >= 7 {
			standing = append(standing, fmt.Sprintf("frame %d: %s/%s", f.Seq, x.ID, x.Severity))
		}
		return f.Seq >= 9
	})).frames
	ins2 := meanRate(frames2, "Com_insert", 2)
	fs2 := meanRate(frames2, dataFsyncs, 2)
	stop()
	neighbours.Wait()
	speedup := ins2 / max(ins1, 1)
	t.Logf("neighbour: %d fsyncs in all; =1: %.0f commits/s on %.0f fsyncs/s, run queue %.1f a CPU; "+
		"=2: %.0f commits/s on %.0f fsyncs/s (%.1fx)",
		*flushed, ins1, fs1, meanRunQueuePerCPU(frames, len(frames)-8), ins2, fs2, speedup)
	if first != nil {
		t.Logf("first %s/%s %.1f s after the clients started:\n%s", first.ID, first.Severity, firstAfter.Seconds(), findingText(first))
	}
	if warn != nil {
		t.Logf("%s/%s stood %.1f s after the clients started:\n%s", warn.ID, warn.Severity, warnAfter.Seconds(), findingText(warn))
	}
	if len(standing) > 0 {
		t.Errorf("commit_fsync_bound still stands with innodb_flush_log_at_trx_commit=2: %v", standing)
	}
	// Whether the fsyncs bound the commits is the disk's to say, measured
	// here rather than assumed. Where =2 is at least twice as fast, the rule
	// must warn within 10 s. This machine's virtual disk completes a flush in
	// about 0.06 ms even with the neighbour flushing 11,000 times a second
	// (and 1 MiB write+fsync neighbours at 2.4 GB/s did not slow it): =2 was
	// 1.0-1.5x faster in five runs, the commits are not bound, and the rule
	// must not warn.
	// On a fresh machine's disk (0.16-0.27 ms a flush) =2 ran 1.4x faster
	// alone and 2.1x in a full run, whose CPU load slows =1's fsync
	// wake-ups; the device was 22-24 % busy flushing, under the warning's
	// busy %, so the rule named it at info: the warning tier is the slow
	// disk's to prove (...SlowDisk below), on this disk the rule must name it.
	switch {
	case speedup >= 2:
		if first == nil || firstAfter > 10*time.Second {
			t.Fatalf("=2 is %.1fx faster, yet commit_fsync_bound did not name it within 10 s (named: %v, after %.1f s)",
				speedup, first != nil, firstAfter.Seconds())
		}
		wantEvidence(t, first, "innodb_flush_log_at_trx_commit=1", "write commits/s", "flushes/s at", "busy flushing",
			"innodb_flush_log_at_trx_commit=2")
	case speedup < 1.5:
		if warn != nil {
			t.Errorf("=2 is only %.1fx faster: the fsyncs do not bound the commits, yet commit_fsync_bound warned after %.1f s",
				speedup, warnAfter.Seconds())
		}
		t.Logf("the neighbour did not make this disk's flushes cost the commits: the rule is held to no warning")
	}
}

// TestIntegrationCommitFsyncBoundSlowDisk: the warning tier on a disk
// without a write cache. The redo log lives on an ext4 filesystem whose
// loop device completes each cache flush 10 ms late (testdb.SlowFlushDisk:
// the backing file is on a FUSE filesystem whose fsync sleeps), as on a
// spinning disk with its write cache off; the datadir stays on this
// machine's disk. 16 autocommit INSERT clients with
// innodb_flush_log_at_trx_commit=1: the rule must warn within 10 s and name
// the loop device as the redo's, busy flushing at no less than the delay a
// flush. With =2 the finding must go. What the fsyncs cost is logged (=2
// ran 2.9-3.1x faster alone, 1.3x in a full run whose CPU load bounds
// both), not asserted: the disk's own figures in the evidence are what
// prove the flushes slow.
func TestIntegrationCommitFsyncBoundSlowDisk(t *testing.T) {
	testdb.SkipShort(t)
	t.Parallel() // =1 mostly waits on the flushes; =2 runs flat out, in the heavy slot
	disk := testdb.NewSlowFlushDisk(t, 256<<20, 10*time.Millisecond)
	srv := testdb.StartRedoIn(t, disk.Dir, "--innodb-flush-log-at-trx-commit=1")
	ordersTable(t, srv)
	w := newWorkload(t)
	dev := filepath.Base(disk.Device)
	c := noWarmup(DefaultConfig())
	var warn *snapshot.Finding
	var warnAfter time.Duration
	var flushes0 int64
	frames := watch(t, srv, within(40*time.Second), judged(c), withHost(&collectors.Host{}), until(func(f *snapshot.Frame) bool {
		if w.began.IsZero() {
			w.began, flushes0 = time.Now(), disk.Flushes.Load()
			autocommitInserts(w, srv, 16, 0)
		}
		if x := findingIn(f, IDCommitFsyncBound); x != nil && x.Severity >= snapshot.Warning && warn == nil {
			warn, warnAfter = x, f.Snapshot.Time.Sub(w.began)
		}
		return warn != nil && time.Since(w.began) >= 12*time.Second || time.Since(w.began) >= 25*time.Second
	})).frames
	ins1 := meanRate(frames, "Com_insert", len(frames)-8)
	fs1 := meanRate(frames, dataFsyncs, len(frames)-8)
	flushes := disk.Flushes.Load()
	// What the device itself saw: the loop device merges the fsyncs InnoDB
	// counts, so its flushes, not InnoDB's fsyncs, say how busy it was.
	deviceBusy := 100 * float64(flushes-flushes0) / time.Since(w.began).Seconds() * disk.Delay.Seconds()

	var ins2, fs2 float64
	var standing []string
	testdb.HeavyPart(t, func() {
		srv.Exec(t, "SET GLOBAL innodb_flush_log_at_trx_commit=2")
		frames2 := watch(t, srv, within(30*time.Second), withHost(&collectors.Host{}), until(func(f *snapshot.Frame) bool {
			// The clear persistence (5 s) may hold the finding into the
			// first seconds of =2; after that it must be gone.
			if x := findingIn(f, IDCommitFsyncBound); x != nil && f.Seq >= 7 {
				standing = append(standing, fmt.Sprintf("frame %d: %s/%s", f.Seq, x.ID, x.Severity))
			}
			return f.Seq >= 10
		})).frames
		ins2, fs2 = meanRate(frames2, "Com_insert", 2), meanRate(frames2, dataFsyncs, 2)
		w.stop()
	})
	t.Logf("%s: %d flushes at %v reached the slow file (%.0f %% busy under =1); =1: %.0f commits/s on %.0f fsyncs/s; "+
		"=2: %.0f commits/s on %.0f fsyncs/s (%.1fx)",
		disk.Device, flushes, disk.Delay, deviceBusy, ins1, fs1, ins2, fs2, ins2/max(ins1, 1))
	// Sixteen clients keep a 10-ms flush device some 90 % busy (90 fsyncs a
	// second) when they get the CPUs; in a loaded full run they sent 16 a
	// second, the device 16 % busy, under even the info line: the flushes
	// did not bound them, and no warning is owed.
	// In another loaded run InnoDB counted 65 fsyncs/s but the device saw
	// about 25 flushes a second, under the warning's share.
	// A warning not owed is not timed either: one loaded run warned after
	// 11.7 s with the device 25 % busy over the whole phase (the rule
	// judges its own window, in which the flushes had built up).
	if deviceBusy < DefaultConfig().CommitFsyncBusyWarn {
		t.Skipf("the clients kept %s %.0f %% busy flushing (%.0f fsyncs/s counted by InnoDB, %v a flush): under the "+
			"rule's warning at %.0f %%, the machine starved them (warned: %v, after %.1f s)", dev, deviceBusy, fs1,
			disk.Delay, DefaultConfig().CommitFsyncBusyWarn, warn != nil, warnAfter.Seconds())
	}
	if warn == nil || warnAfter > 10*time.Second {
		t.Fatalf("commit_fsync_bound did not warn within 10 s of the clients (warned: %v, after %.1f s)", warn != nil, warnAfter.Seconds())
	}
	t.Logf("%s/%s %.1f s after the clients started:\n%s", warn.ID, warn.Severity, warnAfter.Seconds(), findingText(warn))
	wantEvidence(t, warn, "innodb_flush_log_at_trx_commit=1", "write commits/s", "disk "+dev+":", "busy flushing",
		"innodb_flush_log_at_trx_commit=2")
	if !strings.Contains(warn.Title, dev+" busy flushing") {
		t.Errorf("title %q does not name the redo log's device %s", warn.Title, dev)
	}
	if ms := flushMS(warn, dev); ms < float64(disk.Delay.Milliseconds()) {
		t.Errorf("the evidence gives %s %.2f ms a flush, want at least the disk's %v", dev, ms, disk.Delay)
	}
	if len(standing) > 0 {
		t.Errorf("commit_fsync_bound still stands with innodb_flush_log_at_trx_commit=2: %v", standing)
	}
}

// flushMS reads "disk DEV: N flushes/s at X ms each" from a finding.
func flushMS(f *snapshot.Finding, dev string) float64 {
	for _, e := range f.Evidence {
		if _, rest, ok := strings.Cut(e, "disk "+dev+": "); ok {
			if _, at, ok := strings.Cut(rest, " flushes/s at "); ok {
				var ms float64
				if _, err := fmt.Sscanf(at, "%f ms each", &ms); err == nil {
					return ms
				}
			}
		}
	}
	return -1
}
