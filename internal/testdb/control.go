package testdb

import (
	"database/sql"
	"fmt"
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// DSN is a go-sql-driver DSN for root over the socket, without parameters, so
// callers may append "?param=value".
func (s *Server) DSN(db string) string {
	return fmt.Sprintf("root@unix(%s)/%s", s.Socket, db)
}

// TCPDSN is a go-sql-driver DSN for root over the loopback port.
func (s *Server) TCPDSN(db string) string {
	return fmt.Sprintf("root@tcp(%s)/%s", s.Addr(), db)
}

// Addr is the server's loopback host:port.
func (s *Server) Addr() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))
}

// DB opens a pool for root over the socket, closed when the test ends.
func (s *Server) DB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", s.DSN(""))
	if err != nil {
		t.Fatalf("testdb: open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Exec runs each statement as root and fails the test on the first error.
func (s *Server) Exec(t testing.TB, stmts ...string) {
	t.Helper()
	db, err := s.adminDB()
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("testdb: %s: %v", q, err)
		}
	}
}

func (s *Server) adminDB() (*sql.DB, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.admin == nil {
		db, err := sql.Open("mysql", s.DSN(""))
		if err != nil {
			return nil, err
		}
		s.admin = db
	}
	return s.admin, nil
}

// Pause freezes the server with SIGSTOP: it keeps its sockets but answers nothing.
func (s *Server) Pause(t testing.TB) {
	t.Helper()
	if err := s.signal(syscall.SIGSTOP); err != nil {
		t.Fatalf("testdb: pause: %v", err)
	}
}

// Resume continues a paused server with SIGCONT.
func (s *Server) Resume(t testing.TB) {
	t.Helper()
	if err := s.signal(syscall.SIGCONT); err != nil {
		t.Fatalf("testdb: resume: %v", err)
	}
}

// Stop shuts the server down cleanly (SIGTERM, SIGKILL after 20 s); its
// datadir stays, so Restart can bring it back.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.stop(syscall.SIGTERM, 20*time.Second)
}

// Restart stops the server if it runs and starts it again with the same
// datadir, socket, port and arguments.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.stop(syscall.SIGTERM, 20*time.Second)
	if err := s.launch(); err != nil {
		t.Fatalf("testdb: restart: %v", err)
	}
}
