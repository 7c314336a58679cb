package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// TestFleetViewInTmux drives the fleet view over three throwaway servers in a
// real terminal: the server with lock waits comes first, Enter opens its
// dashboard and Esc comes back, and a server frozen with SIGSTOP shows DOWN
// while the fleet keeps running.
func TestFleetViewInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srvs := []*testdb.Server{testdb.Start(t), testdb.Start(t), testdb.Start(t)}
	names := []string{"calm-a", "incident-b", "frozen-c"}
	var lines []string
	for i, s := range srvs {
		lines = append(lines, fmt.Sprintf("localhost socket=%s name=%s", s.Socket, names[i]))
	}
	hosts := filepath.Join(t.TempDir(), "fleet.txt")
	writeFile(t, hosts, "[client]\nuser = root\n"+strings.Join(lines, "\n")+"\n")
	holdRowLock(t, srvs[1], 4)

	s := tmuxtest.Start(t, 80, 24, []string{"HOME=" + t.TempDir()},
		bin, "--no-defaults", "--hosts", hosts, "--interval", "1s")
	// The holder's long_transaction or its waiters' row_lock_waits: either
	// names the incident; a host-wide cpu_saturation on a busy CI machine must
	// not hide it.
	screen := s.WaitFor(60*time.Second, "3 servers", "incident-b")
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(time.Second) {
		rows := fleetRows(screen)
		if len(rows) >= 3 && strings.HasPrefix(rows[0], "incident-b") &&
			(strings.Contains(rows[0], "row_lock_waits") || strings.Contains(rows[0], "long_transaction")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server with lock waits is not first, naming its incident:\n%s", screen)
		}
		screen = s.Screen()
	}

	s.Keys("Enter")
	s.WaitFor(10*time.Second, "Processlist", "UPDATE app.acct")
	s.Keys("Escape")
	s.WaitFor(10*time.Second, "3 servers")

	srvs[2].Pause(t)
	defer srvs[2].Resume(t)
	screen = s.WaitFor(30*time.Second, "DOWN", "1 down")
	if !strings.Contains(screen, "frozen-c") {
		t.Errorf("the frozen server is not listed:\n%s", screen)
	}
	srvs[2].Resume(t)
	s.WaitGone(30*time.Second, "DOWN")
	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s, want 0:\n%s", status, s.Screen())
	}
}

// fleetRows are the table's lines, below the header and column titles.
func fleetRows(screen string) []string {
	var rows []string
	for _, l := range strings.Split(screen, "\n")[2:] {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, "Enter open") {
			rows = append(rows, l)
		}
	}
	return rows
}
