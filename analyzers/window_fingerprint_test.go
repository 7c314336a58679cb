package analyzers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The memo gives what snapshot.Fingerprint gives, stays bounded, and keeps
// no statement longer than maxMemoQuery.
func TestWindowFingerprintMemo(t *testing.T) {
	w := &window{fps: map[string]string{}}
	long := "SELECT * FROM t WHERE id IN (" + strings.Repeat("1,", maxMemoQuery) + "1)"
	for _, q := range []string{"SELECT * FROM t WHERE id = 5", "select *  from t where id=7", long} {
		for range 2 {
			if got, want := w.fingerprint(q), snapshot.Fingerprint(q); got != want {
				t.Errorf("%.40q: %q, want %q", q, got, want)
			}
		}
	}
	if _, kept := w.fps[long]; kept || len(w.fps) != 2 {
		t.Errorf("memo holds %d statements (the long one: %v), want the 2 short ones", len(w.fps), kept)
	}
	for i := range maxFingerprints + 10 {
		w.fingerprint(fmt.Sprintf("SELECT %d FROM t%d", i, i))
	}
	if len(w.fps) > maxFingerprints {
		t.Errorf("memo grew to %d, bound %d", len(w.fps), maxFingerprints)
	}
	if got := (&window{}).fingerprint("SELECT 1"); got != snapshot.Fingerprint("SELECT 1") {
		t.Errorf("without a memo: %q", got)
	}
}
