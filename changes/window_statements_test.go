package changes

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/snaptest"
	"github.com/mytop-go/mytop-go/snapshot"
)

// stretch is frames of a window, one second apart: each with a new digest
// sample of digests, or carrying the last sample (carried), or with none;
// the processlist shows running, each statement on a new thread each frame
// (a new run every second).
type stretch struct {
	frames  int
	digests []snapshot.Digest
	carried bool
	running []string
}

func buildWindow(from time.Time, stretches ...stretch) *Window {
	var fr snaptest.Framer
	w := NewWindow()
	at, seq := from, 0
	var last *snapshot.Statements
	for _, st := range stretches {
		for range st.frames {
			at, seq = at.Add(time.Second), seq+1
			s := &snapshot.Snapshot{Time: at, Status: map[string]string{"Uptime": "1000"}}
			switch {
			case st.digests != nil:
				last = &snapshot.Statements{At: at, Interval: 1, Digests: st.digests}
				s.Statements = last
			case st.carried:
				s.Statements = last
			}
			for i, q := range st.running {
				s.Processlist = append(s.Processlist, snapshot.Process{ID: int64(100*seq + i), DB: "app",
					Command: "Query", State: "Sending data", TimeMS: 300, Info: q})
			}
			w.Add(fr.Next(s))
		}
	}
	return w
}

var (
	groupBy       = "SELECT c, MAX(note), COUNT(*) FROM app.t GROUP BY c"
	groupByDigest = snapshot.Digest{Digest: "g", Text: "SELECT `c` , MAX ( `note` ) , COUNT ( * ) FROM `app` . `t` GROUP BY `c`",
		Calls: 10, LatencyS: 2, RowsExamined: 1000}
	pointReadQuery = "SELECT * FROM t WHERE id = 7"
	// wide's digest text is cut, as a server cuts a statement longer than
	// its max_digest_length.
	wide, wideDigest = wideStatement(200)
)

func inSchema(d snapshot.Digest, schema string, latencyS float64) snapshot.Digest {
	d.Schema, d.LatencyS = schema, latencyS
	return d
}

func wideStatement(columns int) (string, snapshot.Digest) {
	var q, d []string
	for i := range columns {
		q, d = append(q, fmt.Sprintf("c%d", i)), append(d, fmt.Sprintf("`c%d`", i))
	}
	query := "SELECT " + strings.Join(q, ", ") + " FROM app.wide WHERE id = 5"
	text := "SELECT " + strings.Join(d, " , ")
	return query, snapshot.Digest{Digest: "w", Text: text[:958] + "...", Calls: 50, LatencyS: 0.5, RowsExamined: 50}
}

func TestCompareStatementsOfEitherSource(t *testing.T) {
	const groupByFP = "select c, max(note), count(*) from app.t group by c"
	healthy := []stretch{{frames: 30, digests: []snapshot.Digest{pointRead}}}
	cases := []struct {
		name          string
		before, after []stretch
		want          []string
	}{{
		name:   "a statement run only after the last digest sample is new",
		before: healthy,
		after: []stretch{{frames: 22, digests: []snapshot.Digest{pointRead}},
			{frames: 8, carried: true, running: []string{groupBy}}},
		// 8 runs over the window's 30 seconds, not the tail's 8
		want: []string{"statement " + groupByFP + " new, calls per second: 0 → 0.267"},
	}, {
		name:   "sampled in the tail, a statement the before digests hold is not new",
		before: []stretch{{frames: 30, digests: []snapshot.Digest{pointRead, groupByDigest}}},
		after: []stretch{{frames: 22, digests: []snapshot.Digest{pointRead}},
			{frames: 8, carried: true, running: []string{groupBy, pointReadQuery}}},
	}, {
		name:   "the tail adds nothing the window's digests hold",
		before: healthy,
		after: []stretch{{frames: 22, digests: []snapshot.Digest{pointRead, groupByDigest}},
			{frames: 8, carried: true, running: []string{groupBy}}},
		want: []string{"statement " + groupByDigest.Text + " new, calls per second: 0 → 10"},
	}, {
		name:   "a window of sampled statements compares with one of digests",
		before: []stretch{{frames: 30, digests: []snapshot.Digest{pointRead, groupByDigest}}},
		after:  []stretch{{frames: 30, running: []string{groupBy, pointReadQuery}}},
	}, {
		name:   "digests covering every frame: the processlist is not read",
		before: healthy,
		after:  []stretch{{frames: 30, digests: []snapshot.Digest{pointRead}, running: []string{groupBy}}},
	}, {
		name:   "no digests: statements sampled from the processlist",
		before: []stretch{{frames: 30, running: []string{pointReadQuery}}},
		after:  []stretch{{frames: 30, running: []string{pointReadQuery, groupBy}}},
		want:   []string{"statement " + groupByFP + " new, calls per second: 0 → 1"},
	}, {
		name:   "a digest collector that stopped long ago",
		before: healthy,
		after: []stretch{{frames: 5, digests: []snapshot.Digest{pointRead}},
			{frames: 100, carried: true, running: []string{groupBy}}},
		want: []string{"statement " + groupByFP + " new, calls per second: 0 → 0.952"},
	}, {
		name:   "one statement in two schemas adds up",
		before: healthy,
		after:  []stretch{{frames: 30, digests: []snapshot.Digest{inSchema(pointRead, "a", 0.1), inSchema(pointRead, "b", 0.5)}}},
		want:   []string{"statement " + pointRead.Text + " latency per call (s): 0.001 → 0.003 (×3)"},
	}, {
		name:   "a digest cut short covers its whole statement in the tail",
		before: []stretch{{frames: 30, digests: []snapshot.Digest{wideDigest}}},
		after: []stretch{{frames: 22, digests: []snapshot.Digest{wideDigest}},
			{frames: 8, carried: true, running: []string{wide}}},
	}, {
		name:   "a statement new in a digest cut short and in the tail is new once",
		before: healthy,
		after: []stretch{{frames: 22, digests: []snapshot.Digest{pointRead, wideDigest}},
			{frames: 8, carried: true, running: []string{wide}}},
		want: []string{"statement " + wideDigest.Text + " new, calls per second: 0 → 50"},
	}, {
		name:   "a digest cut short matches its statement sampled",
		before: []stretch{{frames: 30, digests: []snapshot.Digest{wideDigest}}},
		after:  []stretch{{frames: 30, running: []string{wide}}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, after := buildWindow(t0, c.before...), buildWindow(t0.Add(time.Hour), c.after...)
			got := lines(Compare(before, after))
			if !slices.Equal(got, c.want) {
				t.Errorf("changes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if again := lines(Compare(before, after)); !slices.Equal(again, got) {
				t.Errorf("compared again\n%s\nfirst\n%s", strings.Join(again, "\n"), strings.Join(got, "\n"))
			}
		})
	}
}
