package collectors

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// session is the sampling connection and what was learnt about the server
// when it was opened.
type session struct {
	conn *sampleConn
	// ID is CONNECTION_ID(), hidden from the processlist.
	ID   int64
	Caps Capabilities
	// probedAt is when Caps were probed.
	probedAt time.Time
	// grants are the account's SHOW GRANTS lines, read when a privilege is
	// missing, and when they were last compared.
	grants   []string
	grantsAt time.Time
	// serverStart is when the server started (from Uptime), once read.
	serverStart time.Time
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
	// reprobe is set when a probe failed for a passing reason (killed,
	// temporary disk full): the session probes again shortly.
	reprobe bool
}

// privilegeGap reports capabilities missing for lack of a privilege, which a
// GRANT can give: global privileges reach only new sessions.
func (c Capabilities) privilegeGap() bool {
	return !c.Process || strings.Contains(c.ReplicaUnavailable, "privilege")
}

// Processlist sources. information_schema.PROCESSLIST is not one: MariaDB
// and MySQL 5.x materialise it in an on-disk temporary table on every read
// (measured on MariaDB 10.11: one Created_tmp_disk_tables per SELECT, none
// for SHOW FULL PROCESSLIST), which a monitor must not add every second.
const (
	sourcePerfSchema = "performance_schema.processlist"
	sourceShow       = "SHOW FULL PROCESSLIST"
)

// Plan sources.
const (
	explainShowFor       = "SHOW EXPLAIN FOR"
	explainForConnection = "EXPLAIN FOR CONNECTION"
	explainStatement     = "EXPLAIN"
)

// Server error numbers the collectors react to.
const (
	errSpecificAccessDenied = 1227 // needs a privilege such as PROCESS
	errParse                = 1064 // statement not supported by this server
	errUnknownThread        = 1094
)

// openSession takes a dedicated connection from db, sets its session
// timeouts (settings) and probes the server. On failure it returns the
// connection id when the server had given one: that session may live on.
func openSession(ctx context.Context, db *sql.DB, settings []string) (*session, int64, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, 0, err
	}
	s := &session{conn: &sampleConn{Conn: conn}}
	if err := s.identify(ctx); err != nil {
		s.abandon()
		return nil, 0, err
	}
	if err := setSessionTimeouts(ctx, s.conn.Conn, settings); err != nil {
		s.abandon()
		return nil, s.ID, err
	}
	if err := s.Caps.probe(ctx, conn, s.ID); err != nil {
		s.abandon()
		return nil, s.ID, err
	}
	s.probedAt = time.Now()
	if s.Caps.privilegeGap() {
		if err := s.readGrants(ctx); err != nil {
			s.abandon()
			return nil, s.ID, err
		}
	}
	return s, s.ID, nil
}

// readGrants keeps the account's grants as the server lists them now, to
// see a GRANT given later (grantsChanged).
func (s *session) readGrants(ctx context.Context) error {
	lines, err := grantLines(ctx, s.conn.Conn)
	if err != nil {
		return err
	}
	s.grants, s.grantsAt = lines, time.Now()
	return nil
}

// grantsChanged reports whether the account's grants differ from those read
// when the session opened. SHOW GRANTS reads the grant tables as they are
// now, while a session keeps the global privileges (PROCESS, SLAVE MONITOR)
// it logged in with: a new session is needed to use a new one.
func (s *session) grantsChanged(ctx context.Context) (bool, error) {
	lines, err := grantLines(ctx, s.conn.Conn)
	if err != nil {
		return false, err
	}
	s.grantsAt = time.Now()
	return !slices.Equal(lines, s.grants), nil
}

func grantLines(ctx context.Context, q queryer) ([]string, error) {
	t, err := queryTable(ctx, q, "SHOW GRANTS")
	if err := transportError(err); err != nil {
		return nil, err
	}
	var lines []string
	if err == nil {
		for _, r := range t.rows {
			lines = append(lines, cell(r, 0))
		}
	}
	return lines, nil
}

// identify reads the connection id, version and flavour.
func (s *session) identify(ctx context.Context) error {
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
func (s *session) abandon() {
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
