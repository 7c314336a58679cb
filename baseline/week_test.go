package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// officeHours makes s a server twice as busy on weekdays from 9:00 to 17:00
// as at night and at weekends, ramping over the hour before and after; with
// *always set, it runs at the daytime level whatever the hour.
func officeHours(s *sim, always *bool) func(*sample) {
	return func(smp *sample) {
		level := 1 + dayShare(s.now)
		if *always {
			level = 2
		}
		for k, v := range smp.rates {
			smp.rates[k] = v * level
		}
		smp.gauges["Threads_running"] *= level
		smp.mysqld *= level
		smp.txB *= level
		smp.writeB *= level
	}
}

// dayShare is 1 in office hours, 0 outside, linear over 8:00-9:00 and
// 17:00-18:00, on weekdays.
func dayShare(t time.Time) float64 {
	if t.Weekday() == time.Saturday || t.Weekday() == time.Sunday {
		return 0
	}
	h := float64(t.Hour()) + float64(t.Minute())/60
	switch {
	case h < 8 || h >= 18:
		return 0
	case h < 9:
		return h - 8
	case h < 17:
		return 1
	}
	return 18 - h
}

// TestAWeekOfHoursJudgesEachHourByItsOwn: a week of a server busier in office
// hours than at night, watched at 10-s intervals, then the monitor stopped
// for a week. Started again on Monday at 9:20, at a Monday morning's load,
// it is judged against Mondays at 9:00 and nothing is news. Started at 3:20
// on Sunday night with the same load, it is judged against Sunday nights,
// and the load is news: a workload spike.
func TestAWeekOfHoursJudgesEachHourByItsOwn(t *testing.T) {
	k := &Keeper{Dir: t.TempDir()}
	// A minute apart for the week (a frame a minute is what a week costs in
	// the fast tier), 10 s apart once started again.
	tr, s := New(DefaultConfig()), newSim(23, time.Minute)
	always := false
	s.now = epoch.Add(-9 * time.Hour) // Monday 00:00
	s.fault, s.faultAt = officeHours(s, &always), s.now
	run(tr, s, 7*24*time.Hour, nil)
	if err := k.Save("db1", tr, s.now, true); err != nil {
		t.Fatal(err)
	}
	s.step = 10 * time.Second
	weekOn := s.now.Add(7 * 24 * time.Hour) // Monday 00:00, a week after the save
	for _, tc := range []struct {
		at     time.Time
		always bool
		note   string
		want   string // the first onset's cause, "" for none
	}{
		{weekOn.Add(9*time.Hour + 20*time.Minute), false, "baseline: Mon 09:00 of earlier weeks", ""},
		{weekOn.Add(-24*time.Hour + 3*time.Hour + 20*time.Minute), true, "baseline: Sun 03:00 of earlier weeks", snapshot.CauseWorkload},
	} {
		again := New(DefaultConfig())
		if err := k.Restore("db1", again); err != nil {
			t.Fatal(err)
		}
		s.now, s.prev, always = tc.at, nil, tc.always
		var first *snapshot.Onset
		var last *snapshot.Frame
		run(again, s, 2*time.Minute, func(f *snapshot.Frame) {
			last = f
			if first == nil && len(f.Onsets) > 0 {
				first = &f.Onsets[0]
			}
		})
		t.Logf("%s: %s; first onset %+v", tc.at.Format("Mon 15:04"), last.Normal.Note, first)
		if !last.Normal.Ready || len(last.Normal.Note) < len(tc.note) || last.Normal.Note[:len(tc.note)] != tc.note {
			t.Errorf("%s: %+v, want %q", tc.at.Format("Mon 15:04"), last.Normal, tc.note)
		}
		switch {
		case tc.want == "" && first != nil:
			t.Errorf("%s, at that hour's usual load: onset %s: %s", tc.at.Format("Mon 15:04"), first.Cause, first.Title)
		case tc.want != "" && (first == nil || first.Cause != tc.want):
			t.Errorf("%s, at office-hours load: first onset %+v, want %s", tc.at.Format("Mon 15:04"), first, tc.want)
		}
	}
}
