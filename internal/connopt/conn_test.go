package connopt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile creates a file with the given mode in dir.
func writeFile(t *testing.T, dir, name, text string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestResolvePrecedence(t *testing.T) {
	dir := t.TempDir()
	global := writeFile(t, dir, "global.cnf", "[client]\nhost=globalhost\nuser=globaluser\nport=1111\n", 0o644)
	home := writeFile(t, dir, "home.cnf", "[client]\nuser = homeuser\npassword = homepw\n[mysqld]\nuser=mysql\n[mytop]\nsocket=/tmp/mytop.sock\n", 0o600)
	files := []optionFile{{global, false}, {filepath.Join(dir, "missing.cnf"), false}, {home, false}}

	tests := []struct {
		name  string
		flags Options
		env   map[string]string
		want  Options
	}{
		{
			name: "files only, later file and later section win",
			want: Options{Host: "globalhost", User: "homeuser", Password: "homepw", PasswordSet: true, Port: 1111, Socket: "/tmp/mytop.sock"},
		},
		{
			name: "environment over files",
			env:  map[string]string{"MYSQL_HOST": "envhost", "MYSQL_PWD": "envpw", "MYSQL_TCP_PORT": "2222", "MYSQL_UNIX_PORT": "/tmp/env.sock"},
			want: Options{Host: "envhost", User: "homeuser", Password: "envpw", PasswordSet: true, Port: 2222, Socket: "/tmp/env.sock"},
		},
		{
			name:  "flags over environment",
			flags: Options{Host: "flaghost", User: "flaguser", Password: "flagpw", PasswordSet: true, Port: 3333},
			env:   map[string]string{"MYSQL_HOST": "envhost", "MYSQL_PWD": "envpw"},
			want:  Options{Host: "flaghost", User: "flaguser", Password: "flagpw", PasswordSet: true, Port: 3333, Socket: "/tmp/mytop.sock"},
		},
		{
			name:  "bare -p prompts even with a stored password",
			flags: Options{NeedsPasswordPrompt: true},
			env:   map[string]string{"MYSQL_PWD": "envpw"},
			want:  Options{Host: "globalhost", User: "homeuser", NeedsPasswordPrompt: true, Port: 1111, Socket: "/tmp/mytop.sock"},
		},
		{
			name:  "empty password on the command line counts",
			flags: Options{PasswordSet: true},
			want:  Options{Host: "globalhost", User: "homeuser", PasswordSet: true, Port: 1111, Socket: "/tmp/mytop.sock"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := tt.flags.resolve(envOf(tt.env), files)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestResolvePortFlagOnLocalhostMeansTCP(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "my.cnf", "[client]\nport=4444\nsocket=/tmp/file.sock\n", 0o600)
	fromFile, _, err := Options{}.resolve(envOf(nil), []optionFile{{file, true}})
	if err != nil {
		t.Fatal(err)
	}
	if net, addr := fromFile.network(); net != "unix" || addr != "/tmp/file.sock" {
		t.Errorf("port from a file with no host: got %s %s, want the socket", net, addr)
	}
	fromFlag, _, err := Options{Port: 3307}.resolve(envOf(nil), []optionFile{{file, true}})
	if err != nil {
		t.Fatal(err)
	}
	if net, addr := fromFlag.network(); net != "tcp" || addr != "127.0.0.1:3307" {
		t.Errorf("-P 3307 on localhost: got %s %s, want tcp 127.0.0.1:3307", net, addr)
	}
}

func TestResolveErrors(t *testing.T) {
	dir := t.TempDir()
	badPort := writeFile(t, dir, "bad.cnf", "[client]\nport=http\n", 0o600)
	tests := []struct {
		name  string
		files []optionFile
		env   map[string]string
		want  string
	}{
		{"required file missing", []optionFile{{filepath.Join(dir, "nope.cnf"), true}}, nil, "nope.cnf"},
		{"bad port in a file", []optionFile{{badPort, true}}, nil, "invalid port"},
		{"bad port in the environment", nil, map[string]string{"MYSQL_TCP_PORT": "x"}, "MYSQL_TCP_PORT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Options{}.resolve(envOf(tt.env), tt.files)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

func TestResolveWithDSNReadsNothingElse(t *testing.T) {
	o := Options{DSN: "u:pw@tcp(db1:3306)/"}
	got, _, err := o.resolve(envOf(map[string]string{"MYSQL_HOST": "envhost"}), []optionFile{{"/nonexistent", true}})
	if err != nil || got != o {
		t.Errorf("got %+v, %v", got, err)
	}
}

func TestOptionFileFiles(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		want []string
	}{
		{"defaults", Options{}, []string{"/etc/my.cnf", "/etc/mysql/my.cnf", "/home/u/.my.cnf"}},
		{"extra file before the user's", Options{DefaultsExtraFile: "/x.cnf"}, []string{"/etc/my.cnf", "/etc/mysql/my.cnf", "/x.cnf", "/home/u/.my.cnf"}},
		{"defaults-file only", Options{DefaultsFile: "/only.cnf"}, []string{"/only.cnf"}},
		{"no-defaults", Options{NoDefaults: true, DefaultsFile: "/only.cnf"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range tt.o.optionFiles("/home/u") {
				got = append(got, f.path)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func fileMode(m uint32) os.FileMode { return os.FileMode(m) }

func TestResolveSSLFromOptionFiles(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"[client]\nssl-mode=VERIFY_CA\nssl\n", "VERIFY_CA"},
		{"[client]\nssl\n", "REQUIRED"},
		{"[client]\nssl=1\nssl-verify-server-cert\n", "VERIFY_IDENTITY"},
		{"[client]\nssl=0\n", "DISABLED"},
		{"[client]\nssl\nskip-ssl\n", "DISABLED"},
		{"[client]\nssl-verify-server-cert=OFF\n", ""},
		{"[client]\nuser=x\n", ""},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		p := writeFile(t, dir, strings.Repeat("s", i+1)+".cnf", tt.text, 0o600)
		got, _, err := Options{}.resolve(envOf(nil), []optionFile{{p, true}})
		if err != nil || got.SSLMode != tt.want {
			t.Errorf("%q: ssl mode %q (%v), want %q", tt.text, got.SSLMode, err, tt.want)
		}
	}
}
