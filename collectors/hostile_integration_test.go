package collectors

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Anyone who can connect controls query text and can choose a user name: the
// collectors must carry such data through unharmed and on time, leaving the
// escaping to whoever prints it.

// hostileUser is a user name with a clear-screen sequence, a carriage return
// and a bell in it.
const hostileUser = "ev\x1b[2J\r\x07il"

// hostileComment holds the same controls plus bytes that are not UTF-8.
const hostileComment = "/* \x1b[2J\r\x07 \xff\xfe bytes */"

func TestHugeQueryTextArrivesInTime(t *testing.T) {
	// Serial: judges the processlist read's latency against the tick.
	srv := testdb.Start(t)
	huge := "SELECT SLEEP(30) /* " + strings.Repeat("x", 1<<20) + " */"
	testdb.RunUntilEnd(t, srv.DB(t), huge)

	l := newLive(t, rootOptions(srv), testInterval, nil)
	awaitHealthy(t, l)
	s, p := awaitProcess(t, l, func(p snapshot.Process) bool { return strings.HasPrefix(p.Info, "SELECT SLEEP(30) /* xxx") })
	if len(p.Info) < 1<<20 && !strings.HasSuffix(p.Info, "…") {
		t.Errorf("1 MB statement cut to %d bytes without saying so", len(p.Info))
	}
	st := s.Collectors[snapshot.CollectorProcesslist]
	t.Logf("processlist with a 1 MB statement: %v, %d bytes of text", st.Latency, len(p.Info))
	if st.Stale || st.Error != "" || st.Latency > testInterval {
		t.Errorf("processlist tick with a 1 MB statement: %+v", st)
	}
}

func TestControlCharactersAndBadBytesArriveVerbatim(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE USER '"+hostileUser+"'@'localhost'", "GRANT USAGE ON *.* TO '"+hostileUser+"'@'localhost'")
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = hostileUser, "unix", srv.Socket
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	testdb.RunUntilEnd(t, db, "SELECT SLEEP(30) "+hostileComment)

	l := newLive(t, rootOptions(srv), testInterval, nil)
	awaitHealthy(t, l)
	_, p := awaitProcess(t, l, func(p snapshot.Process) bool { return strings.HasPrefix(p.Info, "SELECT SLEEP(30)") })
	if p.User != hostileUser {
		t.Errorf("user = %q, want %q", p.User, hostileUser)
	}
	// Escaping is the screen's job: the sample keeps the bytes as sent.
	if !strings.Contains(p.Info, "\x1b[2J\r\x07 \xff\xfe") {
		t.Errorf("query text = %q, want the control characters and bad bytes kept", p.Info)
	}
	t.Logf("user %q, query %q", p.User, p.Info)
}

// awaitProcess samples until a thread matches and returns it with its snapshot.
func awaitProcess(t *testing.T, l *Live, match func(snapshot.Process) bool) (*snapshot.Snapshot, snapshot.Process) {
	t.Helper()
	for i := 0; i < 25; i++ {
		s := next(t, l)
		for _, p := range s.Processlist {
			if match(p) {
				return s, p
			}
		}
	}
	t.Fatal("the thread never showed in the processlist")
	return nil, snapshot.Process{}
}
