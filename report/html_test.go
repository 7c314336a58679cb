package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The page says what changed first, marks its onset on the charts, and puts
// a chronic finding's words beside it.
func TestHTMLShowsOnsetsAndChronic(t *testing.T) {
	b := NewBuilder("t")
	for s := range 10 {
		b.Add(withQPS(s, 100))
	}
	r := b.Report()
	r.Onsets = []snapshot.Onset{{At: t0.Add(4e9), Cause: "disk", Rank: 1, Title: "the disk saturated by another process: dd (pid 9)",
		Signals: []snapshot.OnsetSignal{{Name: "disk util vda", Before: 40, After: 100}}}}
	r.Findings = []Episode{{Span: snapshot.Span{ID: "disk_saturation", Severity: snapshot.Warning, From: t0, To: t0.Add(9e9)},
		Title: "disk busy", Chronic: true, Since: t0}}
	var out bytes.Buffer
	if err := writeHTML(&out, r); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{"Changed first", "the disk saturated by another process: dd (pid 9) (onset", `data-cause="disk"`,
		"disk util vda 40 → 100", `<title>onset: disk</title>`, "chronic, steady since before"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}
