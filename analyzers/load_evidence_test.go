package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestLoadShareNamesTheClassTableAndStatement(t *testing.T) {
	var frames []*snapshot.Frame
	for i := range 10 {
		l := &snapshot.Load{Interval: 1, Active: 10}
		l.Classes[snapshot.ClassRowLock], l.Classes[snapshot.ClassCPU] = 8, 2
		l.Slices = []snapshot.LoadSlice{
			{By: snapshot.DimStatement, Name: "update hot set n = n + ? where id = ?", Classes: snapshot.ClassLoad{snapshot.ClassRowLock: 8}},
			{By: snapshot.DimStatement, Name: "select sum(x) from big", Classes: snapshot.ClassLoad{snapshot.ClassCPU: 2}},
			{By: snapshot.DimObject, Name: "app.hot", Classes: snapshot.ClassLoad{snapshot.ClassRowLock: 8}},
		}
		frames = append(frames, &snapshot.Frame{Seq: i, Snapshot: &snapshot.Snapshot{}, Load: l})
	}
	w := newWindow(frames, nil, &Config{})
	got := strings.Join(loadShare(w, snapshot.ClassRowLock), "\n")
	want := "80 % of the load over the last 10 s is row_lock wait (8.0 of 10.0 average active sessions), most on app.hot, fingerprint update hot set n = n + ? where id = ?"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if ev := loadShare(w, snapshot.ClassMetadataLock); ev != nil {
		t.Errorf("a class with no load: %q", ev)
	}
	for _, f := range frames {
		f.Load = nil
	}
	if ev := loadShare(newWindow(frames, nil, &Config{}), snapshot.ClassRowLock); ev != nil {
		t.Errorf("frames without load: %q", ev)
	}
}

// The pipeline drops the load of frames older than the Engine's LoadFrames:
// the load share must read none of them.
func TestLoadShareReadsOnlyLoadFrames(t *testing.T) {
	var frames []*snapshot.Frame
	for i := range 2 * loadShareFrames {
		l := &snapshot.Load{Interval: 1, Active: 4}
		l.Classes[snapshot.ClassRowLock] = 4
		if i < loadShareFrames {
			l.Classes[snapshot.ClassRowLock], l.Classes[snapshot.ClassCPU] = 1, 3
		}
		frames = append(frames, &snapshot.Frame{Seq: i, Snapshot: &snapshot.Snapshot{}, Load: l})
	}
	whole := loadShare(newWindow(frames, nil, &Config{}), snapshot.ClassRowLock)
	for _, f := range frames[:len(frames)-NewEngine(DefaultConfig()).LoadFrames()] {
		f.Load = nil
	}
	thinned := loadShare(newWindow(frames, nil, &Config{}), snapshot.ClassRowLock)
	if strings.Join(whole, "\n") != strings.Join(thinned, "\n") || len(whole) == 0 {
		t.Errorf("with the older frames' load %q, without it %q", whole, thinned)
	}
}
