package ui

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/internal/testwait"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// startRun runs d on a simulation screen and waits until a frame is drawn.
func startRun(t *testing.T, d *Dashboard) (tcell.SimulationScreen, chan *snapshot.Frame, chan error) {
	t.Helper()
	return startRunCtx(t, context.Background(), d)
}

func startRunCtx(t *testing.T, ctx context.Context, d *Dashboard) (tcell.SimulationScreen, chan *snapshot.Frame, chan error) {
	t.Helper()
	screen := tcell.NewSimulationScreen("UTF-8")
	app := tview.NewApplication().SetScreen(screen)
	screen.SetSize(120, 40)
	frames := make(chan *snapshot.Frame)
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx, app, frames) }()
	frames <- frameAt(1000)
	second := frameAt(1001)
	second.Snapshot.Server.Address = "db2:3306"
	frames <- second
	testwait.Until(t, 5*time.Second, 10*time.Millisecond, func() bool { return strings.Contains(ScreenText(screen), "db2:3306") },
		func() string { return "db2:3306 on the screen" })
	return screen, frames, done
}

func waitRun(t *testing.T, done chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}

func TestRunQuitsOnQ(t *testing.T) {
	d := New(Options{})
	screen, _, done := startRun(t, d)
	screen.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	if err := waitRun(t, done); err != nil {
		t.Errorf("quit returned %v", err)
	}
	// Read only after Run returned: the dashboard belongs to the UI goroutine.
	if d.latest.Seq != 1001 {
		t.Errorf("latest frame = %d", d.latest.Seq)
	}
}

func TestRunEndsWhenTerminalIsLost(t *testing.T) {
	d := New(Options{})
	screen, _, done := startRun(t, d)
	_ = screen.PostEvent(tcell.NewEventError(io.EOF))
	err := waitRun(t, done)
	if err == nil || !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") {
		t.Errorf("err = %v, want the tty error", err)
	}
}

// TestRunEndsWhenContextIsDone: the command ends the context on SIGHUP or
// SIGTERM (cmd/mytop-go's dashboardSignals).
func TestRunEndsWhenContextIsDone(t *testing.T) {
	d := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	_, _, done := startRunCtx(t, ctx, d)
	cancel()
	if err := waitRun(t, done); err != nil {
		t.Errorf("a done context returned %v", err)
	}
}

func TestRunKeepsLastFrameWhenSourceEnds(t *testing.T) {
	d := New(Options{})
	screen, frames, done := startRun(t, d)
	close(frames)
	time.Sleep(50 * time.Millisecond)
	mustContain(t, ScreenText(screen), "query_cache_contention")
	screen.InjectKey(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	if err := waitRun(t, done); err != nil {
		t.Errorf("Ctrl-C returned %v", err)
	}
}

// TestTellShowsOnTheMessageLine: what the command tells (its own health on
// SIGUSR1) reaches the footer from another goroutine.
func TestTellShowsOnTheMessageLine(t *testing.T) {
	d := New(Options{})
	screen, _, done := startRun(t, d)
	go d.Tell("mytop-go: goroutines 12")
	testwait.Until(t, 5*time.Second, 10*time.Millisecond, func() bool { return strings.Contains(ScreenText(screen), "mytop-go: goroutines 12") },
		func() string { return "the health line on the screen" })
	screen.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	if err := waitRun(t, done); err != nil {
		t.Errorf("quit after Tell returned %v", err)
	}
}
