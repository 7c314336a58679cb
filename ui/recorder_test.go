package ui

import (
	"errors"
	"strings"
	"testing"
)

// fakeRecorder stands in for the live session's recorder.
type fakeRecorder struct {
	path    string
	size    int64
	on      bool
	toggles int
	err     error
}

func (r *fakeRecorder) Toggle() (string, bool, error) {
	r.toggles++
	if r.err != nil {
		return "", r.on, r.err
	}
	r.on = !r.on
	return r.path, r.on, nil
}

func (r *fakeRecorder) Status() (string, int64, bool) { return r.path, r.size, r.on }

func liveWithRecorder(rec *fakeRecorder) *Dashboard {
	d := New(Options{Recorder: rec})
	f := incidentFrame()
	f.Recording = ""
	d.Update(f)
	return d
}

func TestRecordKeyTogglesAndHeaderShowsFileAndSize(t *testing.T) {
	rec := &fakeRecorder{path: "mytop-go-20261201-140217.mytop"}
	d := liveWithRecorder(rec)
	mustNotContain(t, firstLine(screenOf(d, 160, 40)), "REC")
	press(d, 'R')
	rec.size = 3 << 20
	s := screenOf(d, 160, 40)
	mustContain(t, firstLine(s), "REC mytop-go-20261201-140217.mytop 3M")
	mustContain(t, s, "recording to mytop-go-20261201-140217.mytop")
	press(d, 'R')
	s = screenOf(d, 160, 40)
	mustNotContain(t, firstLine(s), "REC")
	mustContain(t, s, "recording stopped: mytop-go-20261201-140217.mytop, 3M")
	if rec.toggles != 2 {
		t.Errorf("toggles = %d", rec.toggles)
	}
}

func TestRecordIndicatorSurvivesANarrowTerminal(t *testing.T) {
	rec := &fakeRecorder{path: "incident.mytop", size: 1536, on: true}
	d := liveWithRecorder(rec)
	mustContain(t, firstLine(screenOf(d, 80, 24)), "REC incident.mytop 1.5K")
}

func TestRecordErrorIsShown(t *testing.T) {
	rec := &fakeRecorder{err: errors.New("open /ro/x.mytop: read-only file system")}
	d := liveWithRecorder(rec)
	press(d, 'R')
	mustContain(t, screenOf(d, 160, 40), "recording: open /ro/x.mytop: read-only file system")
}

func TestRecordingStoppedByAnErrorIsNoticed(t *testing.T) {
	rec := &fakeRecorder{path: "x.mytop", on: true}
	d := liveWithRecorder(rec)
	screenOf(d, 160, 40)
	rec.on = false // the frames goroutine closed it after a failed write
	screenOf(d, 160, 40)
	mustContain(t, screenOf(d, 160, 40), "recording to x.mytop stopped (the reason is printed on exit)")
}

func TestRecordKeyNeedsARecorder(t *testing.T) {
	d := New(Options{Player: &fakePlayer{}})
	if _, bound := d.keys["R"]; bound {
		t.Error("R bound without a Recorder")
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
