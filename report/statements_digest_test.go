package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestStatementsFromDigestsCountEachSampleOnce feeds 10 frames carrying two
// 5-second digest samples (carried between reads, as live does).
func TestStatementsFromDigestsCountEachSampleOnce(t *testing.T) {
	b := NewBuilder("rec")
	for i := range 10 {
		fr := frame(i)
		at := t0.Add(time.Duration(i/5*5) * time.Second)
		fr.Snapshot.Statements = &snapshot.Statements{At: at, Interval: 5, Changed: 1, Digests: []snapshot.Digest{
			{Digest: "abc", Text: "UPDATE `t` SET `a` = ? WHERE `b` = ?", Calls: 50, LatencyS: 2.5, RowsExamined: 500_000, NoIndexUsed: 50},
		}}
		b.Add(fr)
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, b.Report()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Statements []map[string]any `json:"statements"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Statements) != 1 {
		t.Fatalf("statements %v", got.Statements)
	}
	s := got.Statements[0]
	if s["digest"] != "abc" || s["calls_per_s"] != 10.0 || s["latency_s_per_s"] != 0.5 ||
		s["rows_examined_per_s"] != 100_000.0 || s["no_index_used"] != true || s["source"] != "performance_schema" ||
		!strings.Contains(s["fingerprint"].(string), "UPDATE") {
		t.Errorf("statement %v", s)
	}
}

func TestStatementsWithoutDigestsAreSampled(t *testing.T) {
	b := NewBuilder("capture")
	for i := range 4 {
		fr := frame(i)
		fr.Snapshot.Processlist = []snapshot.Process{{ID: 7, Command: "Query", TimeMS: int64(i) * 1000,
			Info: "UPDATE t SET a = 1 WHERE b = 2"}}
		b.Add(fr)
	}
	r := b.Report()
	if len(r.Statements) != 1 || r.Statements[0].Source != "processlist" || r.Statements[0].Digest != "" ||
		r.Statements[0].CallsPerS != 0.25 || r.Statements[0].LatencySPerS != 1 {
		t.Errorf("statements %+v", r.Statements)
	}
	var buf bytes.Buffer
	writeText(&buf, r)
	if !strings.Contains(buf.String(), "Top statements per second (from processlist)") {
		t.Errorf("text report:\n%s", buf.String())
	}
}
