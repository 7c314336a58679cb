package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/recording"
)

// TestReplicatedPasswordStaysOut: a replica stops on a replicated
// CREATE USER … IDENTIFIED BY that fails there (the user exists already),
// and its Last_SQL_Error quotes the statement with the password, which
// replication_stopped quotes in its evidence. Neither the screen, a
// recording, a report (text or JSON) nor /metrics carries the password.
func TestReplicatedPasswordStaysOut(t *testing.T) {
	t.Parallel()
	const pw = "Replicated-Pw-93"
	src := testdb.Start(t, "--server-id=1", "--log-bin=binlog")
	rep := testdb.Start(t, "--server-id=2")
	bin := binary(t)
	rep.Exec(t, "CREATE USER 'leaky'@'%' IDENTIFIED BY 'replica-side'",
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='root', "+
			"MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1", src.Port), "START SLAVE")
	src.Exec(t, "CREATE USER 'leaky'@'%' IDENTIFIED BY '"+pw+"'")
	waitSQLError(t, rep, pw)

	out := recordServer(t, bin, rep.Socket, "5s")
	noPasswordInFrames(t, out, pw)
	r, err := recording.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Snapshot(r.Len() - 1)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if ch := s.Channels(); len(ch) != 1 || !strings.Contains(ch[0].Raw["Last_SQL_Error"], "IDENTIFIED BY <secret>") {
		t.Errorf("the replica's error is not kept with its password masked: %+v", ch)
	}
	for _, format := range []string{"text", "json"} {
		rep := string(runBin(t, bin, "report", out, "--format", format))
		noPassword(t, "report --format "+format, rep, pw)
		if !strings.Contains(rep, "replication_stopped") || !strings.Contains(unescapeJSON(rep), "IDENTIFIED BY <secret>") {
			t.Errorf("report --format %s does not quote the masked error:\n%s", format, rep)
		}
	}
	screen := filepath.Join(t.TempDir(), "screen.txt")
	runBin(t, bin, "snapshot", out, "--at", "+4s", "--width", "200", "--height", "60", "-o", screen)
	if b, err := os.ReadFile(screen); err != nil || bytes.Contains(b, []byte(pw)) || !bytes.Contains(b, []byte("replication_stopped")) {
		t.Errorf("screen (%v) shows the password or not the stopped replica:\n%s", err, b)
	}

	hosts := filepath.Join(t.TempDir(), "fleet.txt")
	writeFile(t, hosts, "[client]\nuser=root\n\nlocalhost socket="+rep.Socket+" name=replica\n")
	addr := freeAddr(t)
	stop := startServe(t, bin, "--no-defaults", "--hosts", hosts, "--listen", addr, "--interval", "1s")
	defer stop()
	waitMetrics(t, "http://"+addr+"/metrics", 30*time.Second, func(m map[string]float64) bool {
		return m[findingKey("replica", "replication_stopped")] == 1
	})
	for _, path := range []string{"/metrics", "/"} {
		noPassword(t, path, httpGet(t, "http://"+addr+path), pw)
	}
}

// TestQueuedInsertPasswordStaysOut: an INSERT with a password column waits
// behind a row lock, so the processlist, InnoDB's status, the lock graph and
// the lock findings all quote it; report --format json carries it masked.
func TestQueuedInsertPasswordStaysOut(t *testing.T) {
	t.Parallel()
	const pw = "Bobs-Passw0rd-71"
	srv := testdb.Start(t)
	bin := binary(t)
	srv.Exec(t, "CREATE DATABASE shop", "CREATE TABLE shop.users (id INT AUTO_INCREMENT PRIMARY KEY, login VARCHAR(20), password VARCHAR(64))",
		"INSERT INTO shop.users (login, password) VALUES ('amy', 'x')")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := srv.DB(t)
	holder, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	for _, q := range []string{"BEGIN", "SELECT * FROM shop.users FOR UPDATE"} {
		if _, err := holder.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	go func() { // waits for the lock until the test ends
		_, _ = db.ExecContext(ctx, "INSERT INTO shop.users (login, password) VALUES ('bob', '"+pw+"')")
	}()
	out := recordServer(t, bin, srv.Socket, "8s")
	noPasswordInFrames(t, out, pw)
	rep := string(runBin(t, bin, "report", out, "--format", "json"))
	noPassword(t, "report --format json", rep, pw)
	if !strings.Contains(unescapeJSON(rep), "VALUES ('bob', <secret>)") {
		t.Errorf("the report does not quote the masked INSERT:\n%s", rep)
	}
}

// recordServer records the server on socket for duration and returns the
// recording's path.
func recordServer(t *testing.T, bin, socket, duration string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.mytop")
	cmd := exec.Command(bin, "record", "--no-defaults", "-S", socket, "-uroot", "-o", out, "--duration", duration)
	cmd.Env = []string{"HOME=" + t.TempDir()}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("record: %v\n%s", err, b)
	}
	return out
}

// waitSQLError waits until the replica's SQL thread stopped on an error
// quoting pw; without the password there the test would prove nothing.
func waitSQLError(t *testing.T, rep *testdb.Server, pw string) {
	t.Helper()
	db := rep.DB(t)
	var last string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		rows, err := db.Query("SHOW SLAVE STATUS")
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, c := range cols {
				if c == "Last_SQL_Error" {
					last = fmt.Sprintf("%s", vals[i])
				}
			}
		}
		rows.Close()
		if strings.Contains(last, pw) {
			t.Logf("Last_SQL_Error: %s", last)
			return
		}
	}
	t.Fatalf("the replica did not stop on an error quoting the password; Last_SQL_Error: %q", last)
}

func noPassword(t *testing.T, where, text, pw string) {
	t.Helper()
	if k := strings.Index(text, pw); k >= 0 {
		t.Errorf("password in %s: …%s…", where, text[max(0, k-200):k+len(pw)])
	}
}

// unescapeJSON undoes encoding/json's escaping of < and >.
func unescapeJSON(s string) string {
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(s)
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
