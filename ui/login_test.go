package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/mytop-go/mytop-go/snapshot"
)

type fakeLogin struct{ asked int }

func (l *fakeLogin) LogInAgain() { l.asked++ }

// A refused login: the header says so and why, and Ctrl-R asks the source
// for one attempt; without a refusal the key asks for nothing.
func TestRefusedLoginShowsAndCtrlRAsksOnce(t *testing.T) {
	login := &fakeLogin{}
	d := New(Options{Login: login})
	f := incidentFrame()
	d.Update(f)
	pressKey(d, tcell.KeyCtrlR)
	if login.asked != 0 {
		t.Fatal("Ctrl-R asked for a login while none was refused")
	}
	mustNotContain(t, firstLine(screenOf(d, 200, 40)), "login refused")

	down := incidentFrame()
	down.Snapshot.Server.Unreachable = true
	down.Snapshot.Server.Error = "login refused: access denied for user 'mon'@'localhost' (check the password); no new attempt until asked"
	down.Snapshot.Server.LoginRefused = snapshot.LoginAccessDenied
	d.Update(down)
	mustContain(t, firstLine(screenOf(d, 240, 40)), "login refused (access_denied): Ctrl-R logs in again")
	pressKey(d, tcell.KeyCtrlR)
	if login.asked != 1 {
		t.Fatalf("Ctrl-R asked %d times, want 1", login.asked)
	}
	mustContain(t, screenOf(d, 240, 40), "logging in again")
}
