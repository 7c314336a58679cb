package collectors

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestErrorLogPath(t *testing.T) {
	for _, c := range []struct {
		vars      map[string]string
		path, why string
	}{
		{map[string]string{"log_error": "/var/log/mysql/error.log"}, "/var/log/mysql/error.log", ""},
		{map[string]string{"log_error": "./db1.err", "datadir": "/var/lib/mysql/"}, "/var/lib/mysql/db1.err", ""},
		{map[string]string{"log_error": "db1", "datadir": "/var/lib/mysql/"}, "/var/lib/mysql/db1.err", ""},
		{map[string]string{"log_error": "", "datadir": "/var/lib/mysql/"}, "", "the error log goes to mysqld's standard error (log_error is not set)"},
		{map[string]string{}, "", "no variables read yet"},
	} {
		p, why := errorLogPath(c.vars)
		if p != c.path || why != c.why {
			t.Errorf("%v: %q %q, want %q %q", c.vars, p, why, c.path, c.why)
		}
	}
}

// TestErrorLogReadsOnlyNewLinesWhenRefusalsMove: the first tick finds the
// end; later ticks read what was appended, and only when the refusal
// counters moved; a partial last line waits for the next read.
func TestErrorLogReadsOnlyNewLinesWhenRefusalsMove(t *testing.T) {
	log := filepath.Join(t.TempDir(), "err.log")
	write := func(s string) {
		f, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	write("2026-12-03  8:00:00 3 [Warning] Access denied for user 'old'@'localhost' (using password: YES)\n")
	fp := newFakeProc(t)
	fp.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 /run/mysqld/mysqld.sock\n")
	fp.process(30, "mariadbd", 7001)
	fp.task(30, 0, "mariadbd", 100, 0)
	e := newErrorLog(newServerProc(fp.root, "/run/mysqld/mysqld.sock"))
	tick := func(denied string) *snapshot.Snapshot {
		s := &snapshot.Snapshot{Variables: map[string]string{"log_error": log},
			Status: map[string]string{"Access_denied_errors": denied, "Aborted_connects": denied}}
		if err := e.Collect(t.Context(), s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := tick("1"); s.RefusedLogins != nil {
		t.Errorf("first tick read %+v, want only the end found", s.RefusedLogins)
	}
	write("2026-12-03  8:00:01 4 [Warning] Access denied for user 'app'@'10.0.0.7' (using password: YES)\n" +
		"2026-12-03  8:00:01 5 [Warning] Access denied for user 'app'@'10.0.0.7' (usi")
	s := tick("3")
	if s.RefusedLogins == nil || len(s.RefusedLogins.Refusals) != 1 || s.RefusedLogins.Refusals[0].Count != 1 ||
		s.RefusedLogins.Refusals[0].User != "app" {
		t.Fatalf("second tick: %+v", s.RefusedLogins)
	}
	write("ng password: YES)\n")
	if s := tick("3"); s.RefusedLogins != nil {
		t.Errorf("counters did not move, yet the log was read: %+v", s.RefusedLogins)
	}
	s = tick("4")
	if s.RefusedLogins == nil || len(s.RefusedLogins.Refusals) != 1 || s.RefusedLogins.Refusals[0].Count != 1 {
		t.Fatalf("fourth tick: %+v", s.RefusedLogins)
	}
	r := newErrorLog(newServerProc(fp.root, "192.0.2.7:3306"))
	s = &snapshot.Snapshot{Variables: map[string]string{"log_error": log}}
	r.Collect(t.Context(), s)
	if s.Collectors[snapshot.CollectorErrorLog].Unavailable == "" {
		t.Error("a remote server's log was not said unreadable")
	}
}
