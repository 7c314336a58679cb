package analyzers

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestFormatting(t *testing.T) {
	counts := map[int64]string{0: "0", 999: "999", 1000: "1,000", 2104331: "2,104,331", -45000: "-45,000"}
	for n, want := range counts {
		if got := fmtCount(n); got != want {
			t.Errorf("fmtCount(%d) = %q, want %q", n, got, want)
		}
	}
	rates := map[float64]string{0: "0.0", 0.44: "0.4", 9.96: "10.0", 10.4: "10", 1482.6: "1,483"}
	for v, want := range rates {
		if got := fmtRate(v); got != want {
			t.Errorf("fmtRate(%v) = %q, want %q", v, got, want)
		}
	}
	durations := map[time.Duration]string{1500 * time.Millisecond: "1.5 s", 48 * time.Second: "48 s",
		3*time.Hour + 4*time.Minute + 9*time.Second: "3h04m"}
	for d, want := range durations {
		if got := fmtDuration(d); got != want {
			t.Errorf("fmtDuration(%v) = %q, want %q", d, got, want)
		}
	}
	sizes := map[float64]string{134217728: "128M", 6442450944: "6.0G", 262144: "256K", 512: "512"}
	for b, want := range sizes {
		if got := fmtBytes(b); got != want {
			t.Errorf("fmtBytes(%v) = %q, want %q", b, got, want)
		}
	}
}

func TestThreadLineAndClip(t *testing.T) {
	p := snapshot.Process{ID: 5121, User: "app", Host: "10.0.0.12:51234", DB: "shop", Command: "Query",
		TimeMS: 48000, State: "Sending data", Info: "UPDATE b SET c = 'secret' WHERE d = 7", ExaminedRows: 2104331}
	want := `thread 5121 app@10.0.0.12 db shop, 48 s in "Sending data", 2,104,331 rows examined: update b set c = ? where d = ?`
	if got := threadLine(&p); got != want {
		t.Errorf("threadLine\n got %s\nwant %s", got, want)
	}
	idle := snapshot.Process{ID: 6, User: "app", Host: "10.0.0.12:51234", Command: "Sleep", TimeMS: 12000}
	if got, want := threadLine(&idle), "thread 6 app@10.0.0.12, 12 s idle (Sleep)"; got != want {
		t.Errorf("threadLine\n got %s\nwant %s", got, want)
	}
	if got := clip("ab€cd", 4); got != "ab…" {
		t.Errorf("clip cut inside a rune: %q", got)
	}
}
