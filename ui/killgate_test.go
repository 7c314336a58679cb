package ui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// When the kill gate sends nothing (the thread runs another statement now),
// the DBA reads why in a dialog, on screen, not in a footer line that
// passes; and the gate was handed the row the dialog showed.
func TestKillDialogShowsTheGatesRefusal(t *testing.T) {
	const why = "KILL QUERY 5121 not sent: thread 5121 now runs `SELECT * FROM carts` (was `UPDATE shop.b SET c=1`). Nothing killed."
	a := &fakeActions{refuse: map[int64]string{5121: why}}
	d := New(Options{Actions: a})
	f := incidentFrame()
	d.Update(f)
	pressKey(d, tcell.KeyDown) // rows by Time desc: 4001 first, then 5121
	press(d, 'k')
	mustContain(t, screenOf(d, 120, 30), "KILL QUERY 5121")
	press(d, 'y')
	if len(a.kills) != 0 {
		t.Fatalf("a refused kill was sent: %v", a.kills)
	}
	if d.modal == nil {
		t.Fatal("the refusal is not shown in a dialog")
	}
	mustContain(t, screenOf(d, 160, 40), "KILL QUERY 5121 not sent", "now runs `SELECT * FROM carts`", "Nothing killed.")
	var want snapshot.Process
	for _, p := range f.Snapshot.Processlist {
		if p.ID == 5121 {
			want = p
		}
	}
	got := a.targets[0]
	if got.ID != 5121 || got.User != want.User || got.Host != want.Host || got.Info != want.Info ||
		got.Mode != snapshot.ModeLive || !got.Seen.Equal(f.Snapshot.Time) ||
		!got.Started.Equal(f.Snapshot.Time.Add(-time.Duration(want.TimeMS)*time.Millisecond)) {
		t.Errorf("the gate was handed %+v, want the row shown %+v", got, want)
	}
	pressKey(d, tcell.KeyEscape)
	if d.modal != nil {
		t.Error("Esc does not close the refusal")
	}
}
