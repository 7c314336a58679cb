package busynormal

import (
	"slices"
	"testing"
	"time"
)

// The run on a normal with a row always queued on and a disk a synced
// writer keeps busy (ChronicBusy), made as the family's
// (testdata/README.md): 5.5 minutes of that normal, then six faults, each
// 30 s with 45 s of recovery.
const (
	chronicRecording = "testdata/chronic-normal.mytop"
	chronicTimeline  = "testdata/chronic-normal.json"
)

// On a server whose normal always has a finding and a busy disk, the
// monitor marks the finding chronic through the normal (hot_rows stands in
// most of its frames and is never news) and names each fault first, above
// it, within the bounds: the disk hog on a disk already 82 % busy too.
func TestReplayChronicNormal(t *testing.T) {
	tl, err := LoadTimeline(chronicTimeline)
	if err != nil {
		t.Fatal(err)
	}
	frames, err := Replay(chronicRecording)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) < 300 {
		t.Fatalf("the recording replayed as %d frames", len(frames))
	}
	checkRecordedFaults(t, tl)
	j := Judge(frames, tl)
	t.Logf("%d frames, %s:\n%s", len(frames), frames[len(frames)-1].Time().Sub(frames[0].Time()).Round(time.Second), j.Report())
	if !slices.Contains(j.Chronic, "hot_rows") {
		t.Errorf("hot_rows did not stand through the normal (standing: %v): the normal is not the one this test is about", j.Chronic)
	}
	checkJudgement(t, j, judging{quietNormal: true, replay: true})
}
