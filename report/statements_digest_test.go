package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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

// TestStatementsOfTheFramesNoDigestSampleCovers feeds a digest sample
// every 5 frames (carried between) for 20 frames, then 8 frames carrying
// the last one while the processlist runs running, a new run each frame.
func TestStatementsOfTheFramesNoDigestSampleCovers(t *testing.T) {
	const update = "UPDATE `t` SET `a` = ? WHERE `b` = ?"
	// sample is 10 calls a second over secs.
	sample := func(at time.Time, secs int64) *snapshot.Statements {
		return &snapshot.Statements{At: at, Interval: float64(secs), Digests: []snapshot.Digest{
			{Digest: "abc", Text: update, Calls: 10 * secs, LatencyS: 0.5 * float64(secs)}}}
	}
	cases := []struct {
		name    string
		running string
		// everyFrame has a new digest sample each frame instead.
		everyFrame bool
		want       []string
		// text is a line of the text report.
		text string
	}{{
		name:    "a statement run only after the last digest sample is listed, sampled",
		running: "SELECT c, COUNT(*) FROM t GROUP BY c",
		// 8 runs over the digests' 20 seconds and the tail's 12
		want: []string{"performance_schema 10 " + update, "processlist 0.25 select c, count(*) from t group by c"},
		text: "  select c, count(*) from t group by c [sampled]\n",
	}, {
		name:    "a statement the digests hold is listed once",
		running: "UPDATE t SET a = 1 WHERE b = 2",
		want:    []string{"performance_schema 10 " + update},
		text:    "Top statements per second (from performance_schema)\n",
	}, {
		name:       "digests covering every frame: the processlist is not read",
		running:    "SELECT c, COUNT(*) FROM t GROUP BY c",
		everyFrame: true,
		want:       []string{"performance_schema 10 " + update},
		text:       "Top statements per second (from performance_schema)\n",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBuilder("rec")
			var last *snapshot.Statements
			for i := range 28 {
				fr := frame(i)
				switch at := fr.Snapshot.Time; {
				case c.everyFrame:
					last = sample(at, 1)
				case i < 20 && i%5 == 0:
					last = sample(at, 5)
				}
				fr.Snapshot.Statements = last
				if i >= 20 {
					fr.Snapshot.Processlist = []snapshot.Process{{ID: int64(i), Command: "Query", TimeMS: 300, Info: c.running}}
				}
				b.Add(fr)
			}
			r := b.Report()
			var got []string
			for _, s := range r.Statements {
				got = append(got, fmt.Sprint(s.Source, " ", s.CallsPerS, " ", s.Fingerprint))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("statements\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			var text bytes.Buffer
			writeText(&text, r)
			if !strings.Contains(text.String(), c.text) {
				t.Errorf("text report without %q:\n%s", c.text, text.String())
			}
		})
	}
}
