package baseline

import (
	"os"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestKeptAcrossARestartOfTheMonitor: a baseline saved and restored judges
// the next frames at once (no new warm-up), and names a fault as the
// tracker that never stopped does.
func TestKeptAcrossARestartOfTheMonitor(t *testing.T) {
	k := &Keeper{Dir: t.TempDir()}
	tr, s := New(DefaultConfig()), newSim(21, 5*time.Second)
	run(tr, s, 20*time.Minute, nil)
	if err := k.Save("db1:3306", tr, s.now, true); err != nil {
		t.Fatal(err)
	}
	again := New(DefaultConfig())
	if err := k.Restore("db1:3306", again); err != nil {
		t.Fatal(err)
	}
	s.now = s.now.Add(2 * time.Minute) // the monitor was down two minutes
	s.prev = nil
	f := s.next()
	again.Observe(f, nil)
	if !f.Normal.Ready || f.Normal.HistoryMinutes < 15 {
		t.Fatalf("restored baseline: %+v", f.Normal)
	}
	s.fault, s.faultAt = faults[0].apply, s.now.Add(time.Nanosecond)
	named, _ := firstOnset(again, s, time.Minute)
	if named == nil || named.Cause != snapshot.CauseCPUOutside {
		t.Errorf("after the restore, first onset %+v", named)
	}
}

// TestSameHourOfEarlierWeeks: after a long stop, the warm-up judges against
// the same hour of the week as last seen, and says so.
func TestSameHourOfEarlierWeeks(t *testing.T) {
	k := &Keeper{Dir: t.TempDir()}
	tr, s := New(DefaultConfig()), newSim(22, 5*time.Second)
	run(tr, s, 50*time.Minute, nil)
	if err := k.Save("db1", tr, s.now, true); err != nil {
		t.Fatal(err)
	}
	again := New(DefaultConfig())
	if err := k.Restore("db1", again); err != nil {
		t.Fatal(err)
	}
	s.now, s.prev = s.now.Add(7*24*time.Hour-10*time.Minute), nil
	var last *snapshot.Frame
	run(again, s, 30*time.Second, func(f *snapshot.Frame) { last = f })
	if !last.Normal.Ready || last.Normal.Note != "baseline: Mon 09:00 of earlier weeks (0 min of its own)" {
		t.Errorf("a week later: %+v", last.Normal)
	}
	s.fault, s.faultAt = faults[0].apply, s.now.Add(time.Nanosecond)
	named, _ := firstOnset(again, s, time.Minute)
	if named == nil || named.Cause != snapshot.CauseCPUOutside {
		t.Errorf("against last week's hour, first onset %+v", named)
	}
}

// TestDamagedBaselineFileIsIgnored: one line of error, and the baseline
// warms up afresh.
func TestDamagedBaselineFileIsIgnored(t *testing.T) {
	k := &Keeper{Dir: t.TempDir()}
	if err := os.WriteFile(k.Path("db1"), []byte(`{"version": 1, "stamps": [1`), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := New(DefaultConfig())
	if err := k.Restore("db1", tr); err == nil {
		t.Error("a damaged file restored without error")
	}
	if err := k.Restore("db2", tr); err != nil {
		t.Errorf("a missing file: %v", err)
	}
}
