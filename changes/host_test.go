package changes

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// hostFrame is one second of a host whose disk sda is util % busy and whose
// other processes use other CPUs.
func hostFrame(at time.Time, util, other float64, onsets ...snapshot.Onset) *snapshot.Frame {
	return &snapshot.Frame{
		Snapshot: &snapshot.Snapshot{Time: at, Host: &snapshot.Host{NumCPU: 2, ProcsRunning: 2}},
		Rates: &snapshot.Rates{Interval: 1, Host: &snapshot.HostRates{
			CPU:    snapshot.CPUTimes{User: 40, Idle: 60},
			Disks:  []snapshot.DiskRate{{Name: "sda", UtilPercent: util, AwaitMS: 2}},
			Mysqld: &snapshot.MysqldRate{CPUs: 0.7, OtherCPUs: other},
		}},
		Onsets: onsets,
	}
}

// TestHostChangesAndOnsets: a disk that went from 30 % to 95 % busy and
// other processes taking 1.8 CPUs are listed as host changes, a steady
// figure is not, and the incident's onsets come back by episode and rank.
func TestHostChangesAndOnsets(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	before, after := NewWindow(), NewWindow()
	for i := range 60 {
		before.Add(hostFrame(t0.Add(time.Duration(i)*time.Second), 30, 0.05))
	}
	first := snapshot.Onset{At: t0.Add(time.Hour), Cause: snapshot.CauseCPUOutside, Rank: 1}
	second := snapshot.Onset{At: t0.Add(time.Hour + 2*time.Second), Cause: snapshot.CauseDisk, Rank: 2}
	for i := range 60 {
		at := t0.Add(time.Hour + time.Duration(i)*time.Second)
		switch {
		case i < 10:
			after.Add(hostFrame(at, 95, 1.8, first, second))
		case i < 20:
			after.Add(hostFrame(at, 95, 1.8))
		default:
			later := snapshot.Onset{At: t0.Add(time.Hour + 20*time.Second), Cause: snapshot.CauseLocks, Rank: 1}
			after.Add(hostFrame(at, 95, 1.8, later))
		}
	}
	got := map[string]bool{}
	for _, c := range Compare(before, after) {
		if c.Kind == KindHost {
			got[c.Name] = true
		}
	}
	if !got["disk sda util %"] || !got["other processes' CPUs"] || got["host CPU busy %"] || got["disk sda await ms"] {
		t.Errorf("host changes %v", got)
	}
	os := after.Onsets()
	if len(os) != 3 || os[0].Cause != snapshot.CauseCPUOutside || os[1].Cause != snapshot.CauseDisk ||
		os[2].Cause != snapshot.CauseLocks {
		t.Errorf("onsets %+v", os)
	}
}
