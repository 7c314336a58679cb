package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/recording"
)

// TestPasswordLeavesTheProcessTitle runs a recorder with -pPASSWORD and reads
// its /proc/PID/cmdline, as `ps` would, while it records.
func TestPasswordLeavesTheProcessTitle(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE USER 'app'@'localhost' IDENTIFIED BY 'Hunter2Secret'", "GRANT PROCESS ON *.* TO 'app'@'localhost'")
	recordAndReadTitle(t, "-pxxxxxxxxxxxxx", "--no-defaults", "-S", srv.Socket, "-uapp", "-pHunter2Secret")
}

// TestDSNPasswordLeavesTheProcessTitle: a password inside --dsn is
// overwritten like -p, the rest of the DSN left for ps to show.
func TestDSNPasswordLeavesTheProcessTitle(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE USER 'app'@'localhost' IDENTIFIED BY 'Hunter2Secret'", "GRANT PROCESS ON *.* TO 'app'@'localhost'")
	dsn := "app:Hunter2Secret@unix(" + srv.Socket + ")/"
	recordAndReadTitle(t, "app:xxxxxxxxxxxxx@unix(", "--no-defaults", "--dsn", dsn)
}

// recordAndReadTitle records with the connection arguments conn, reads the
// recorder's /proc/PID/cmdline while it runs, and checks that the password
// Hunter2Secret is in neither it (where scrubbed must show instead), stderr
// nor the recording.
func recordAndReadTitle(t *testing.T, scrubbed string, conn ...string) {
	t.Helper()
	bin := binary(t)
	out := filepath.Join(t.TempDir(), "r.mytop")
	cmd := exec.Command(bin, append(append([]string{"record"}, conn...), "-o", out, "--duration", "20s")...)
	cmd.Env = []string{"HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(stderr.String(), "frames") {
		if time.Now().After(deadline) {
			t.Fatalf("recorder did not start: %s", stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	title, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(title, []byte("Hunter2Secret")) {
		t.Errorf("password visible in the process title: %q", title)
	}
	if !bytes.Contains(title, []byte(scrubbed)) {
		t.Errorf("process title %q: want the password overwritten in place (%s)", title, scrubbed)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	_ = cmd.Wait()
	if strings.Contains(stderr.String(), "Hunter2Secret") {
		t.Errorf("password in stderr: %q", stderr.String())
	}
	for _, f := range []string{out, out + "-wal"} {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte("Hunter2Secret")) {
			t.Errorf("password written to %s", f)
		}
	}
	// Frames are compressed: the raw bytes would hide a password in them.
	noPasswordInFrames(t, out, "Hunter2Secret")
	if info, err := os.Stat(out); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("recording mode: %v %v, want 0600", info.Mode(), err)
	}
}

// noPasswordInFrames decodes every frame and the meta of a recording and
// fails if pw appears in any of them.
func noPasswordInFrames(t *testing.T, path, pw string) {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Len() == 0 {
		t.Fatal("the recording has no frames to check")
	}
	if b, _ := json.Marshal(r.Meta()); bytes.Contains(b, []byte(pw)) {
		t.Errorf("password in the recording's meta: %s", b)
	}
	for i := 0; i < r.Len(); i++ {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if b, _ := json.Marshal(s); bytes.Contains(b, []byte(pw)) {
			k := bytes.Index(b, []byte(pw))
			t.Errorf("password in frame %d: …%s…", i, b[max(0, k-300):k+20])
		}
	}
}

// TestOtherSessionsSecretsStayOut records a server where another session runs
// a statement with a password in it: the recording holds the statement with
// <secret> in the password's place, never the password.
func TestOtherSessionsSecretsStayOut(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE DATABASE shop", "CREATE TABLE shop.users (login VARCHAR(20), password VARCHAR(64))",
		"INSERT INTO shop.users VALUES ('bob', 'x')")
	db := srv.DB(t)
	go func() {
		// Ends with the server, at the test's end: its error says nothing.
		if rows, err := db.Query("SELECT SLEEP(30), PASSWORD('Session2Secret') FROM shop.users WHERE password <> 'Session1Secret'"); err == nil {
			_ = rows.Close()
		}
	}()
	out := recordServer(t, bin, srv.Socket, "4s")
	for _, pw := range []string{"Session1Secret", "Session2Secret"} {
		noPasswordInFrames(t, out, pw)
	}
	r, err := recording.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Snapshot(r.Len() - 1)
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT SLEEP(30), PASSWORD(<secret>) FROM shop.users WHERE password <> <secret>"
	for _, p := range s.Processlist {
		if p.Info == want {
			return
		}
	}
	t.Errorf("no thread runs %q in the last frame: %+v", want, s.Processlist)
}
