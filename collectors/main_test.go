package collectors

import (
	"database/sql"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
)

// shared is one server for the integration tests that do not stop or pause
// it; started on first use, killed after all tests.
var shared struct {
	once sync.Once
	srv  *testdb.Server
	err  error
}

func TestMain(m *testing.M) {
	// Workload connections killed or cut by the tests would log to stderr.
	mysql.SetLogger(quietLogger{})
	code := m.Run()
	if shared.srv != nil {
		shared.srv.Close()
	}
	os.Exit(code)
}

func sharedServer(t *testing.T) *testdb.Server {
	t.Helper()
	testdb.SkipShort(t)
	srv, err := sharedServerErr()
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	return srv
}

func sharedServerErr() (*testdb.Server, error) {
	shared.once.Do(func() { shared.srv, shared.err = testdb.Launch() })
	return shared.srv, shared.err
}

// testInterval is the tick of integration tests that do not test timing:
// long enough for a loaded 2-core machine to finish a tick in the budget.
const testInterval = 400 * time.Millisecond

// productDB is a handle on the shared server as root, with the driver
// configured as the product configures it (rootOptions' Config), for the
// tests of what the driver hands the collectors.
func productDB(t *testing.T) *sql.DB {
	t.Helper()
	cfg, err := rootOptions(sharedServer(t)).Config()
	if err != nil {
		t.Fatal(err)
	}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(connector)
	t.Cleanup(func() { db.Close() })
	return db
}

// rootOptions connects as root over the server's socket.
func rootOptions(srv *testdb.Server) connopt.Options {
	return connopt.Options{Socket: srv.Socket, User: "root", PasswordSet: true}
}

// newLive starts a live source for o; closed when the test ends.
func newLive(t *testing.T, o connopt.Options, interval time.Duration, tune func(*LiveOptions)) *Live {
	t.Helper()
	cfg, err := o.Config()
	if err != nil {
		t.Fatal(err)
	}
	opts := LiveOptions{Config: cfg, Interval: interval, MaxBackoff: interval}
	if tune != nil {
		tune(&opts)
	}
	l, err := NewLive(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func configFor(t *testing.T, o connopt.Options) *mysql.Config {
	t.Helper()
	cfg, err := o.Config()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
