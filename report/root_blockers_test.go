package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// findings[].root_blockers: the roots at the episode's most severe moment,
// with the documented field names; absent from findings without them.
func TestJSONRootBlockers(t *testing.T) {
	rb := func(thread int64, waiters int) []snapshot.RootBlocker {
		return []snapshot.RootBlocker{{Thread: thread, User: "app", AgeS: 312, Waiters: waiters,
			Statement: "idle in transaction for 312 s"}}
	}
	warn := f("row_lock_waits", snapshot.Warning, 0, "warn")
	warn.RootBlockers = rb(7, 3)
	crit := f("row_lock_waits", snapshot.Critical, 0, "crit")
	crit.RootBlockers = rb(4711, 37)
	b := NewBuilder("x.mytop")
	b.Add(frame(0, warn, f("buffer_pool_miss", snapshot.Warning, 0, "bp")))
	b.Add(frame(1, crit))
	var buf bytes.Buffer
	if err := writeJSON(&buf, b.Report()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Findings []map[string]json.RawMessage `json:"findings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	byID := map[string]map[string]json.RawMessage{}
	for _, x := range got.Findings {
		var id string
		json.Unmarshal(x["id"], &id)
		byID[id] = x
	}
	want := `[{"thread":4711,"user":"app","age_s":312,"waiters":37,"statement":"idle in transaction for 312 s"}]`
	var compact bytes.Buffer
	json.Compact(&compact, byID["row_lock_waits"]["root_blockers"])
	if compact.String() != want {
		t.Errorf("root_blockers = %s, want %s", compact.String(), want)
	}
	if _, ok := byID["buffer_pool_miss"]["root_blockers"]; ok {
		t.Error("root_blockers on a finding without locks")
	}
}
