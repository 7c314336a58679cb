package recording

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// digestSample is a sample of n digests read at at; seed varies the counts.
func digestSample(at time.Time, n, seed int) *snapshot.Statements {
	st := &snapshot.Statements{At: at, Interval: 5, Changed: n}
	for i := range n {
		st.Digests = append(st.Digests, snapshot.Digest{
			Schema: "shop", Digest: fmt.Sprintf("%032x", i*7919),
			Text:   fmt.Sprintf("SELECT `c%d` FROM `orders` WHERE `id` = ?", i),
			Sample: fmt.Sprintf("SELECT c%d FROM orders WHERE id = %d", i, 1000+seed*i),
			Calls:  int64(100 + seed*i), LatencyS: float64(seed+i) / 100, RowsExamined: int64(seed * 31 * i),
		})
	}
	return st
}

// TestStatementsAreRecordedOncePerRead writes a digest sample every 5th frame,
// carried (the same pointer, as the live collector does) in between, and
// checks that replay gives back the samples and that carried frames add
// almost nothing to the file.
func TestStatementsAreRecordedOncePerRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.mytop")
	w, err := Create(path, WriterOptions{KeyframeEvery: 1000})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var cur *snapshot.Statements
	var want []*snapshot.Statements
	for i := range 60 {
		if i%5 == 0 {
			cur = digestSample(t0.Add(time.Duration(i)*time.Second), 50, i)
		}
		want = append(want, cur)
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Statements: cur,
			Status: map[string]string{"Uptime": fmt.Sprint(100 + i)}}
		if err := w.Write(&snapshot.Frame{Seq: i, Snapshot: s}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	r := openT(t, path)
	for i := range 60 {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s.Statements, want[i]) {
			t.Fatalf("frame %d: statements differ after replay", i)
		}
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var fresh, carried float64
	if err := db.QueryRow(`select avg(case when seq % 5 = 0 then length(data) end),
		avg(case when seq % 5 != 0 then length(data) end) from frames where seq > 0`).Scan(&fresh, &carried); err != nil {
		t.Fatal(err)
	}
	t.Logf("stored bytes per frame: %.0f with a new sample of 50 digests, %.0f carrying it", fresh, carried)
	if carried > 100 || carried*10 > fresh {
		t.Errorf("a frame carrying the last sample stores %.0f B (a new sample %.0f B)", carried, fresh)
	}
}

func TestRedactedStatementsKeepNoLiteral(t *testing.T) {
	st := digestSample(time.Now(), 3, 1)
	c := redacted(&snapshot.Snapshot{Statements: st}).Statements
	for i, d := range c.Digests {
		if strings.Contains(d.Sample, "100") || d.Text != st.Digests[i].Text {
			t.Errorf("redacted %+v", d)
		}
	}
	if !strings.Contains(st.Digests[1].Sample, "1001") {
		t.Error("the caller's sample was changed")
	}
}
