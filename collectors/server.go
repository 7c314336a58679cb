package collectors

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Session is the sampling connection and what was learnt about the server
// when it was opened.
type Session struct {
	conn *sampleConn
	// ID is CONNECTION_ID(), hidden from the processlist.
	ID   int64
	Caps Capabilities
}

// Capabilities says what the server offers this user, found by probing rather
// than by matching version strings.
type Capabilities struct {
	Version        string
	VersionComment string
	Flavor         string
	// Processlist is where threads are read from: one of the Source* constants.
	Processlist string
	// ProcesslistDetail are the extra columns of information_schema.PROCESSLIST
	// (TIME_MS, EXAMINED_ROWS or ROWS_EXAMINED) this server has, read only for
	// long-running statements.
	ProcesslistDetail []string
	// StatementsCurrent is whether performance_schema records running
	// statements (events_statements_current consumer on and readable).
	StatementsCurrent bool
	// Process is whether the user holds the PROCESS privilege.
	Process bool
	// InnoDB is whether SHOW ENGINE INNODB STATUS works.
	InnoDB bool
	// ReplicaStatement is one of replicaStatements; empty with
	// ReplicaUnavailable saying why.
	ReplicaStatement   string
	ReplicaUnavailable string
	// ReplicaWorkers is whether performance_schema's applier workers are
	// readable (MySQL 8): each channel then gets its worker count and the
	// transaction its workers apply.
	ReplicaWorkers bool
	// Explain is the statement that shows a running thread's plan: one of the
	// Explain* constants.
	Explain string
}

// Processlist sources. information_schema.PROCESSLIST is not one: MariaDB
// and MySQL 5.x materialise it in an on-disk temporary table on every read
// (measured on MariaDB 10.11: one Created_tmp_disk_tables per SELECT, none
// for SHOW FULL PROCESSLIST), which a monitor must not add every second.
const (
	SourcePerfSchema = "performance_schema.processlist"
	SourceShow       = "SHOW FULL PROCESSLIST"
)

// Plan sources.
const (
	ExplainShowFor       = "SHOW EXPLAIN FOR"
	ExplainForConnection = "EXPLAIN FOR CONNECTION"
	ExplainStatement     = "EXPLAIN"
)

// Server error numbers the collectors react to.
const (
	errSpecificAccessDenied = 1227 // needs a privilege such as PROCESS
	errParse                = 1064 // statement not supported by this server
	errUnknownThread        = 1094
)

// openSession takes a dedicated connection from db and probes the server.
func openSession(ctx context.Context, db *sql.DB) (*Session, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	s := &Session{conn: &sampleConn{Conn: conn}}
	if err := s.identify(ctx); err != nil {
		s.abandon()
		return nil, err
	}
	if err := s.Caps.probe(ctx, conn, s.ID); err != nil {
		s.abandon()
		return nil, err
	}
	return s, nil
}

// identify reads the connection id, version and flavour.
func (s *Session) identify(ctx context.Context) error {
	row := s.conn.QueryRowContext(ctx, tag+"SELECT CONNECTION_ID(), VERSION(), @@version_comment")
	if err := row.Scan(&s.ID, &s.Caps.Version, &s.Caps.VersionComment); err != nil {
		return err
	}
	s.Caps.Flavor = flavorOf(s.Caps.Version, s.Caps.VersionComment)
	return nil
}

// flavorOf names the server family from VERSION() and @@version_comment.
func flavorOf(version, comment string) string {
	v, c := strings.ToLower(version), strings.ToLower(comment)
	switch {
	case strings.Contains(v, "mariadb") || strings.Contains(c, "mariadb"):
		return snapshot.FlavorMariaDB
	case strings.Contains(c, "percona") || strings.Contains(v, "percona"):
		return snapshot.FlavorPercona
	default:
		return snapshot.FlavorMySQL
	}
}

// abandon closes the connection and keeps the pool from reusing it: after a
// timeout its protocol state is unknown.
func (s *Session) abandon() {
	if s == nil || s.conn == nil {
		return
	}
	s.conn.Raw(func(any) error { return driver.ErrBadConn })
	s.conn.Close()
	s.conn = nil
}

// serverErrno returns the MySQL error number of err, or 0.
func serverErrno(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}
