package recording

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A frame whose processlist was carried from an earlier full read says so in
// the recording too: its replay shows the same age of the idle rows.
func TestListCadenceStored(t *testing.T) {
	s := newFakeServer(t, 5, 20).frame(0).Snapshot
	want := snapshot.ListCadence{FullAt: s.Time.Add(-2 * time.Second), Every: 4 * time.Second,
		Cost: 18 * time.Millisecond, Budget: 5 * time.Millisecond}
	s.ListCadence = &want
	var form frameForm
	raw, err := form.encode(s, true)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := decodeFrame(raw, chainState{})
	if err != nil {
		t.Fatal(err)
	}
	if c := got.ListCadence; c == nil || !c.FullAt.Equal(want.FullAt) || c.Every != want.Every || c.Cost != want.Cost ||
		c.Budget != want.Budget || !c.Carried(got.Time) {
		t.Errorf("stored %+v, read back %+v", want, c)
	}
}
