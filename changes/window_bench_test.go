package changes

import (
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/snaptest"
	"github.com/mytop-go/mytop-go/snapshot"
)

// benchFrames are a busy server's frames: 300 status values, 50 sessions
// of which 20 run a statement, and, when digestEvery > 0, a new digest
// sample every digestEvery frames, carried between.
func benchFrames(n, digestEvery int) []*snapshot.Frame {
	queries := []string{
		"SELECT c FROM sbtest1 WHERE id=%d",
		"SELECT c FROM sbtest1 WHERE id BETWEEN %d AND 5100 ORDER BY c",
		"UPDATE sbtest1 SET k=k+1 WHERE id=%d",
		"INSERT INTO sbtest1 (id, k, c, pad) VALUES (%d, 4993, '83868641912-28773972837-60736120486', '67847967377-48000963322')",
		"SELECT k, COUNT(*) FROM sbtest1 WHERE id IN (%d, 2, 3, 4, 5, 6, 7, 8, 9, 10) GROUP BY k",
	}
	var fr snaptest.Framer
	var last *snapshot.Statements
	out := make([]*snapshot.Frame, n)
	for i := range out {
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Status: map[string]string{}}
		for j := range 300 {
			s.Status[fmt.Sprintf("Com_stmt_%d", j)] = fmt.Sprint(1000 + i*j)
		}
		for j := range 50 {
			p := snapshot.Process{ID: int64(j), Command: "Sleep"}
			if j < 20 {
				p.Command, p.TimeMS, p.Info = "Query", 3, fmt.Sprintf(queries[j%len(queries)], i*50+j)
			}
			s.Processlist = append(s.Processlist, p)
		}
		if digestEvery > 0 {
			if i%digestEvery == 0 {
				last = &snapshot.Statements{At: s.Time, Interval: float64(digestEvery), Digests: []snapshot.Digest{pointRead, badScan}}
			}
			s.Statements = last
		}
		out[i] = fr.Next(s)
	}
	return out
}

func benchmarkWindowAdd(b *testing.B, digestEvery int) {
	frames := benchFrames(1000, digestEvery)
	b.ReportAllocs()
	b.ResetTimer()
	var w *Window
	for i := range b.N {
		if i%len(frames) == 0 {
			w = NewWindow()
		}
		w.Add(frames[i%len(frames)])
	}
}

func BenchmarkWindowAddDigestsEvery5s(b *testing.B) { benchmarkWindowAdd(b, 5) }
func BenchmarkWindowAddNoDigests(b *testing.B)      { benchmarkWindowAdd(b, 0) }

// BenchmarkWindowStatements is what a comparison adds once: the shapes of
// a window's statements, and its tail sampled.
func BenchmarkWindowStatements(b *testing.B) {
	frames := benchFrames(1000, 5)
	w := NewWindow()
	for _, f := range frames {
		w.Add(f)
	}
	b.ResetTimer()
	for range b.N {
		w.statements()
	}
}
