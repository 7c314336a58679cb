package fleet

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/internal/connopt"
)

func TestParseHostsFile(t *testing.T) {
	in := `# the shop's servers
[client]
user = monitor
password = "s3cret"

db1.example
db2.example:3307 name=db2 user=ro
localhost socket=/run/mysqld/a.sock name=local-a
monitor:pw@tcp(10.0.0.9:3306)/ name=dsn-one
[::1]:3308
`
	ts, def, err := parseHostsFile(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	wantDef := defaults{User: "monitor", Password: "s3cret", PasswordSet: true}
	if def != wantDef {
		t.Errorf("defaults %+v, want %+v", def, wantDef)
	}
	want := []target{
		{Name: "db1.example", Server: connopt.Server{Host: "db1.example"}},
		{Name: "db2", Server: connopt.Server{Host: "db2.example", Port: 3307, User: "ro"}},
		{Name: "local-a", Server: connopt.Server{Host: "localhost", Socket: "/run/mysqld/a.sock"}},
		{Name: "dsn-one", Server: connopt.Server{DSN: "monitor:pw@tcp(10.0.0.9:3306)/"}},
		{Name: "[::1]:3308", Server: connopt.Server{Host: "::1", Port: 3308}},
	}
	if !reflect.DeepEqual(ts, want) {
		t.Errorf("targets\n%+v\nwant\n%+v", ts, want)
	}
}

func TestParseHostsFileErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "names no server"},
		{"# only a comment\n[client]\nuser=x\n", "names no server"},
		{"db1 port=99999\n", `line 1: port "99999" is not a TCP port`},
		{"db1 colour=blue\n", `line 1: unknown key "colour"`},
		{"db1\n[client]\nssl-ca=/x\n", "line 3: [client] ssl-ca: only user and password"},
		{"user=x\n", "settings belong in a [client] section"},
		{"db1:http\n", `"db1": what follows its ':' is not a TCP port`},
		{"db1 name\n", "line 1: word 1 after the host is not key=value"},
	} {
		_, _, err := parseHostsFile(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// A password never comes back in an error, wherever the line that carries
// it is misplaced or mistyped.
func TestHostsFileErrorsNeverEchoAPassword(t *testing.T) {
	for _, in := range []string{
		"db1\n[server]\npassword=Hunter2\n",
		"password = Hunter2\ndb1\n",
		"db1\n[mysqld]\npass=Hunter2\n",
		"db1 password=Hunter2 with spaces\n",
		"db1 password=two Hunter2\n",
		"password Hunter2\n",
		"password:Hunter2\n",
		"db1 user=app password=Hunter2 port=x\n",
	} {
		_, _, err := parseHostsFile(strings.NewReader(in))
		if err == nil {
			t.Errorf("%q: no error", in)
			continue
		}
		if strings.Contains(err.Error(), "Hunter2") {
			t.Errorf("%q: the error echoes the password: %v", in, err)
		}
	}
}

// A DSN's name never carries its credentials into labels or the screen.
func TestDSNNameHidesCredentials(t *testing.T) {
	ts, _, err := parseHostsFile(strings.NewReader("app:hunter2@tcp(db9:3306)/shop\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ts[0].Name != "db9:3306" {
		t.Errorf("name %q, want db9:3306", ts[0].Name)
	}
}

func TestSplitHosts(t *testing.T) {
	ts, err := splitHosts("db1, db2:3307,,db3")
	if err != nil {
		t.Fatal(err)
	}
	want := []target{
		{Name: "db1", Server: connopt.Server{Host: "db1"}},
		{Name: "db2:3307", Server: connopt.Server{Host: "db2", Port: 3307}},
		{Name: "db3", Server: connopt.Server{Host: "db3"}},
	}
	if !reflect.DeepEqual(ts, want) {
		t.Errorf("%+v, want %+v", ts, want)
	}
}
