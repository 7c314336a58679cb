package exporter

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestExporterOnsetAndChronic: the open episode's causes are exported with
// the cause as a label and the rank as the value, a chronic finding says so,
// and the onset leaves /metrics when the episode closes.
func TestExporterOnsetAndChronic(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	f := frame(t0, false,
		snapshot.Finding{ID: "row_lock_waits", Severity: snapshot.Warning, Since: t0.Add(-time.Hour), Chronic: true},
		snapshot.Finding{ID: "cpu_saturation", Severity: snapshot.Warning, Since: t0})
	f.Onsets = []snapshot.Onset{{At: t0.Add(-5 * time.Second), Cause: snapshot.CauseCPUOutside, Rank: 1},
		{At: t0, Cause: snapshot.CauseLocks, Rank: 2}}
	f.Normal = &snapshot.Normal{Ready: true, HistoryMinutes: 30}
	e := New()
	e.Observe("db1:3306", f)
	got := series(scrape(t, e))
	for _, want := range []string{
		`mytop_onset{server="db1:3306",cause="cpu outside mysqld"} 1`,
		`mytop_onset{server="db1:3306",cause="locks"} 2`,
		`mytop_onset_since_seconds{server="db1:3306",cause="cpu outside mysqld"} 1796133732`,
		`mytop_finding_chronic{server="db1:3306",id="row_lock_waits",severity="warning"} 1`,
		`mytop_finding_chronic{server="db1:3306",id="cpu_saturation",severity="warning"} 0`,
		`mytop_baseline_minutes{server="db1:3306"} 30`,
	} {
		i := strings.LastIndexByte(want, ' ')
		key, val := want[:i], want[i+1:]
		v, _ := strconv.ParseFloat(val, 64)
		if g, ok := got[canonical(key)]; !ok || g != v {
			t.Errorf("want %s, got %v (present %v)", want, g, ok)
		}
	}
	e.Observe("db1:3306", frame(t0.Add(time.Second), false))
	for k := range series(scrape(t, e)) {
		if strings.HasPrefix(k, "mytop_onset") {
			t.Errorf("%s still exported after the episode closed", k)
		}
	}
}
