package importers

import (
	"slices"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestMarkMissingEveryPart: a capture of status counters alone marks every
// other part of snapshot.Parts "not in this capture", the ones capture
// formats never carry too, and names those a capture could have carried.
func TestMarkMissingEveryPart(t *testing.T) {
	tl := newTimeline(time.UTC)
	tl.status[100] = map[string]string{"Uptime": "5"}
	snaps, missing := tl.build()
	if len(snaps) != 1 {
		t.Fatalf("%d snapshots", len(snaps))
	}
	var want []string
	for _, p := range snapshot.Parts {
		st := snaps[0].Collectors[p.Collector]
		if p.Collector == snapshot.CollectorStatus {
			if st.Unavailable != "" {
				t.Errorf("status, which the capture holds, marked %q", st.Unavailable)
			}
			continue
		}
		if st.Unavailable != notCaptured {
			t.Errorf("%s: %+v, want %q", p.Collector, st, notCaptured)
		}
		if p.Captured != "" {
			want = append(want, p.Captured)
		}
	}
	if !slices.Equal(missing, want) {
		t.Errorf("missing = %q, want %q", missing, want)
	}
}
