package collectors

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// The host cache and the accounts' limits are read as root, and a monitor
// without the grants says which one it lacks instead of failing.
func TestLiveConnectLimits(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--performance-schema=ON")
	srv.Exec(t, "CREATE USER lim@'%' IDENTIFIED BY 'x' WITH MAX_USER_CONNECTIONS 4",
		"CREATE USER watcher@localhost", "GRANT PROCESS ON *.* TO watcher@localhost",
		"CREATE USER granted@localhost", "GRANT SELECT (User, Host, max_user_connections) ON mysql.user TO granted@localhost")
	root := newLive(t, rootOptions(srv), testInterval, nil)
	s := nextAnswered(t, root)
	want := []snapshot.AccountLimit{{User: "lim", Host: "%", MaxUserConnections: 4}}
	if !reflect.DeepEqual(s.AccountLimits, want) {
		t.Errorf("account limits %+v, want %+v (%+v)", s.AccountLimits, want, s.Collectors[snapshot.CollectorAccountLimits])
	}
	if st := s.Collectors[snapshot.CollectorHostCache]; st.Unavailable != "" || st.Error != "" {
		t.Errorf("host cache as root: %+v", st)
	}
	if s = nextAnswered(t, root); !reflect.DeepEqual(s.AccountLimits, want) {
		t.Errorf("account limits not carried to the next tick: %+v", s.AccountLimits)
	}

	watcher := newLive(t, connopt.Options{Socket: srv.Socket, User: "watcher", PasswordSet: true}, testInterval, nil)
	s = nextAnswered(t, watcher)
	if s.AccountLimits != nil {
		t.Errorf("watcher read the limits: %+v", s.AccountLimits)
	}
	if why := s.Collectors[snapshot.CollectorAccountLimits].Unavailable; !strings.Contains(why, "needs SELECT on mysql.user") {
		t.Errorf("account limits without SELECT on mysql.user: %q", why)
	}
	if why := s.Collectors[snapshot.CollectorHostCache].Unavailable; !strings.Contains(why, "needs SELECT on performance_schema") {
		t.Errorf("host cache without SELECT on performance_schema: %q", why)
	}

	// The column grant check names is enough: no password hash (mysql.user
	// is a view on MariaDB 10.4+).
	granted := newLive(t, connopt.Options{Socket: srv.Socket, User: "granted", PasswordSet: true}, testInterval, nil)
	if s = nextAnswered(t, granted); !reflect.DeepEqual(s.AccountLimits, want) {
		t.Errorf("with SELECT on mysql.user: %+v (%+v)", s.AccountLimits, s.Collectors[snapshot.CollectorAccountLimits])
	}
	hashes := openDB(t, "granted@unix("+srv.Socket+")/")
	if _, err := hashes.Exec("SELECT authentication_string FROM mysql.user"); err == nil {
		t.Error("the column grant lets the account read the password hashes")
	}

	off := newLive(t, rootOptions(sharedServer(t)), testInterval, nil)
	if why := nextAnswered(t, off).Collectors[snapshot.CollectorHostCache].Unavailable; !strings.HasPrefix(why, "performance_schema is off") {
		t.Errorf("host cache with performance_schema off: %q", why)
	}
}
