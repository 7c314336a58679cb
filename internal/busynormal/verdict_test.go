package busynormal

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// frameAt is a frame at t0+sec, judged against a ready baseline, with onsets.
func frameAt(t0 time.Time, sec int, onsets ...snapshot.Onset) *snapshot.Frame {
	return &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: t0.Add(time.Duration(sec) * time.Second)},
		Rates: &snapshot.Rates{Interval: 1}, Normal: &snapshot.Normal{Ready: true}, Onsets: onsets}
}

func onset(t0 time.Time, sec int, cause string, rank int) snapshot.Onset {
	return snapshot.Onset{At: t0.Add(time.Duration(sec) * time.Second), Cause: cause, Rank: rank, Title: cause + " moved"}
}

func TestJudgeReadsEachFaultsVerdict(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 4, 0, 0, 0, time.UTC)
	tl := &Timeline{Began: t0, NormalUntil: t0.Add(100 * time.Second), Ended: t0.Add(300 * time.Second),
		Injections: []Injection{
			{Fault: "cpu-hog", Cause: snapshot.CauseCPUOutside, Began: t0.Add(100 * time.Second), Ended: t0.Add(130 * time.Second)},
			{Fault: "lock-convoy", Cause: snapshot.CauseLocks, Began: t0.Add(200 * time.Second), Ended: t0.Add(230 * time.Second)},
		}}
	var frames []*snapshot.Frame
	for s := 0; s < 300; s++ {
		var os []snapshot.Onset
		switch {
		case s >= 50 && s < 60: // a false onset in the normal
			os = []snapshot.Onset{onset(t0, 48, snapshot.CauseStatement, 1)}
		case s >= 107 && s < 140: // named first 7 s after, dated 2 s after
			os = []snapshot.Onset{onset(t0, 102, snapshot.CauseCPUOutside, 1)}
		case s >= 205 && s < 240: // locks named, but second to the disk
			os = []snapshot.Onset{onset(t0, 201, snapshot.CauseDisk, 1), onset(t0, 203, snapshot.CauseLocks, 2)}
		}
		f := frameAt(t0, s, os...)
		if s < 100 {
			f.Findings = []snapshot.Finding{{ID: "row_lock_waits", Severity: snapshot.Warning, Chronic: s > 20}}
		} else if s < 130 {
			f.Findings = []snapshot.Finding{{ID: "row_lock_waits", Severity: snapshot.Warning, Chronic: true}}
		}
		frames = append(frames, f)
	}
	j := Judge(frames, tl)
	if len(j.FalseOnsets) != 1 || j.FalseOnsets[0].Cause != snapshot.CauseStatement {
		t.Errorf("false onsets: %v", j.FalseOnsets)
	}
	if j.NewFindings["row_lock_waits"] != 21 {
		t.Errorf("findings at warning not chronic in the normal: %v", j.NewFindings)
	}
	if len(j.Chronic) != 1 || j.Chronic[0] != "row_lock_waits" {
		t.Errorf("standing through the normal: %v", j.Chronic)
	}
	if j.Judged != 100*time.Second {
		t.Errorf("judged %s of normal", j.Judged)
	}
	cpu, locks := j.Verdicts[0], j.Verdicts[1]
	if ok, why := cpu.Good(); !ok || cpu.TimeToName != 7*time.Second || cpu.OnsetError != 2*time.Second || cpu.Rank != 1 ||
		cpu.Kept != snapshot.CauseCPUOutside {
		t.Errorf("cpu-hog: %s (%s)", cpu, why)
	}
	if ok, why := locks.Good(); ok || locks.Rank != 2 || locks.First != snapshot.CauseDisk || !strings.Contains(why, "rank 2") {
		t.Errorf("lock-convoy: %s (%s)", locks, why)
	}
}

func TestVerdictBounds(t *testing.T) {
	good := Verdict{Fault: "f", Cause: "disk", Named: true, Rank: 1, TimeToName: 9 * time.Second, OnsetError: -4 * time.Second,
		Kept: "disk"}
	if ok, why := good.Good(); !ok {
		t.Errorf("%s: %s", good, why)
	}
	for name, v := range map[string]Verdict{
		"late":       {Named: true, Rank: 1, TimeToName: 11 * time.Second},
		"misdated":   {Named: true, Rank: 1, TimeToName: 8 * time.Second, OnsetError: 6 * time.Second},
		"second":     {Named: true, Rank: 2, TimeToName: 3 * time.Second},
		"unnamed":    {},
		"notchronic": {Named: true, Rank: 1, Kept: "disk", NotChronic: []string{"hot_rows"}},
		"overtaken":  {Cause: "locks", Named: true, Rank: 1, TimeToName: 5 * time.Second, Kept: "workload spike"},
	} {
		if ok, _ := v.Good(); ok {
			t.Errorf("%s passes: %s", name, v)
		}
	}
}
