package connopt

import (
	"strings"
	"testing"
)

func TestConfigNetwork(t *testing.T) {
	tests := []struct {
		name     string
		o        Options
		net      string
		addr     string
		describe string
	}{
		{"explicit socket", Options{Socket: "/tmp/s.sock", User: "u"}, "unix", "/tmp/s.sock", "u@/tmp/s.sock"},
		{"localhost uses the socket", Options{Host: "localhost", Socket: "/tmp/s.sock", User: "u"}, "unix", "/tmp/s.sock", "u@/tmp/s.sock"},
		{"remote host default port", Options{Host: "db1", User: "u"}, "tcp", "db1:3306", "u@db1:3306"},
		{"remote host and port", Options{Host: "10.0.0.5", Port: 3307, User: "u"}, "tcp", "10.0.0.5:3307", "u@10.0.0.5:3307"},
		{"IPv6", Options{Host: "::1", Port: 3307, User: "u"}, "tcp", "[::1]:3307", "u@[::1]:3307"},
		{"protocol tcp on localhost", Options{Protocol: "tcp", Port: 3307, User: "u"}, "tcp", "127.0.0.1:3307", "u@127.0.0.1:3307"},
		{"protocol socket wins over host", Options{Protocol: "socket", Host: "db1", Socket: "/s", User: "u"}, "unix", "/s", "u@/s"},
		{"dsn", Options{DSN: "app:pw@tcp(db2:3310)/shop"}, "tcp", "db2:3310", "app@db2:3310"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := tt.o.Config()
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Net != tt.net || cfg.Addr != tt.addr {
				t.Errorf("got %s %s, want %s %s", cfg.Net, cfg.Addr, tt.net, tt.addr)
			}
			if s := tt.o.String(); s != tt.describe {
				t.Errorf("String() = %q, want %q", s, tt.describe)
			}
		})
	}
}

func TestConfigCredentials(t *testing.T) {
	cfg, err := Options{Host: "db1", User: "app", Password: "s3cret", PasswordSet: true, Database: "shop"}.Config()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.User != "app" || cfg.Passwd != "s3cret" || cfg.DBName != "shop" {
		t.Errorf("got user %q pass %q db %q", cfg.User, cfg.Passwd, cfg.DBName)
	}
	if cfg.MultiStatements {
		t.Error("multi statements must stay off")
	}
	cfg, err = Options{DSN: "app:old@tcp(db2)/", Password: "new", PasswordSet: true}.Config()
	if err != nil || cfg.Passwd != "new" || cfg.User != "app" {
		t.Errorf("DSN with -p override: %+v %v", cfg, err)
	}
	cfg, err = Options{Host: "db1"}.Config()
	if err != nil || cfg.User == "" {
		t.Errorf("no user given: want the login name, got %q (%v)", cfg.User, err)
	}
}

func TestStringNeverShowsPassword(t *testing.T) {
	for _, o := range []Options{
		{Host: "db1", User: "app", Password: "hunter2", PasswordSet: true},
		{DSN: "app:hunter2@tcp(db2:3306)/x"},
		{DSN: "app:hunter2@tcp(db2:3306", User: "x"},
		{DSN: "app:hunter2/x@tcp(db2:3306)"},
		{DSN: "app:(hunter2)/x@db2"},
		{DSN: "(:hunter2)/@db2"}, // a user "(" is no net(address
	} {
		if s := o.String(); strings.Contains(s, "hunter2") {
			t.Errorf("String() leaks the password: %q", s)
		}
		if _, err := o.Config(); err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Config error leaks the password: %v", err)
		}
	}
}

func TestDSNSlashInPassword(t *testing.T) {
	cfg, err := Options{DSN: "app:pa/ss@tcp(db2:3306)/shop"}.Config()
	if err != nil || cfg.Passwd != "pa/ss" || cfg.Addr != "db2:3306" {
		t.Errorf("password with '/': %+v %v", cfg, err)
	}
	for _, dsn := range []string{"tcp(db2:3306)/shop@x", "app:pw@tcp(db2:3306)/shop?x=a@b"} {
		if _, err := (Options{DSN: dsn}).Config(); err != nil && strings.Contains(err.Error(), "end the DSN with '/'") {
			t.Errorf("%q: %v", dsn, err)
		}
	}
	if _, err := (Options{DSN: "app:pa/ss@tcp(db2:3306)"}).Config(); err == nil || !strings.Contains(err.Error(), "end the DSN with '/'") {
		t.Errorf("missing final '/': %v", err)
	}
}

func TestConfigSSLModes(t *testing.T) {
	tests := []struct {
		name       string
		o          Options
		wantTLS    bool
		skipVerify bool
		fallback   bool
		err        string
	}{
		{"default over TCP prefers TLS", Options{Host: "db1"}, true, true, true, ""},
		{"default over a socket has none", Options{Socket: "/s"}, false, false, false, ""},
		{"disabled", Options{Host: "db1", SSLMode: "DISABLED"}, false, false, false, ""},
		{"required", Options{Host: "db1", SSLMode: "required"}, true, true, false, ""},
		{"required over a socket", Options{Socket: "/s", SSLMode: "REQUIRED"}, true, true, false, ""},
		{"verify identity with system roots", Options{Host: "db1", SSLMode: "VERIFY_IDENTITY"}, true, false, false, ""},
		{"verify_ca needs a CA", Options{Host: "db1", SSLMode: "VERIFY_CA"}, false, false, false, "needs --ssl-ca"},
		{"missing CA file", Options{Host: "db1", SSLCA: "/nonexistent/ca.pem"}, false, false, false, "--ssl-ca"},
		{"unknown mode", Options{Host: "db1", SSLMode: "MAYBE"}, false, false, false, "invalid --ssl-mode"},
		{"missing key pair", Options{Host: "db1", SSLMode: "REQUIRED", SSLCert: "/nonexistent.pem", SSLKey: "/nonexistent.key"}, false, false, false, "--ssl-cert"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := tt.o.Config()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, want error with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (cfg.TLS != nil) != tt.wantTLS {
				t.Fatalf("TLS %v, want %v", cfg.TLS != nil, tt.wantTLS)
			}
			if cfg.TLS != nil && cfg.TLS.InsecureSkipVerify != tt.skipVerify {
				t.Errorf("InsecureSkipVerify %v, want %v", cfg.TLS.InsecureSkipVerify, tt.skipVerify)
			}
			if cfg.AllowFallbackToPlaintext != tt.fallback {
				t.Errorf("fallback %v, want %v", cfg.AllowFallbackToPlaintext, tt.fallback)
			}
			if tt.o.SSLMode == "VERIFY_IDENTITY" && cfg.TLS.ServerName != "db1" {
				t.Errorf("ServerName %q", cfg.TLS.ServerName)
			}
		})
	}
}

// FuzzDSNPassword builds --dsn values around a password holding a marker
// found nowhere else in them: neither the error for a DSN the driver rejects
// nor the String() of one it accepts may show the marker. The driver parses
// "user:pass@net(addr)/db" from its last '/' backwards, so a password with
// '/', '(' or '@' in it is where a description can go wrong.
func FuzzDSNPassword(f *testing.F) {
	const marker = "Zq9xW"
	f.Add("app", "", "", "tcp(db2:3306)/shop")
	f.Add("app", "pa", "/ss", "tcp(db2:3306)")
	f.Add("app", "p@ss", "(x)", "tcp(db2:3306)/shop?timeout=5s")
	f.Add("", "", "", "unix(/run/mysqld/mysqld.sock)/?parseTime=maybe")
	f.Add("app", "", "", "tcp(db2:3306/shop")
	f.Add("app", "a/", "", "/db%zz")
	f.Fuzz(func(t *testing.T, user, before, after, rest string) {
		if strings.ContainsAny(user, ":@/") {
			t.Skip() // then the password no longer starts after user's ':'
		}
		if strings.Contains(before+after, "@") && !strings.Contains(rest, "/") {
			// user:a@b/c@h reads as password "a", network "b" and
			// database "c@h" as well as it does as password "a@b/c".
			t.Skip()
		}
		if opensNetAddress(user) {
			// user tcp(x reads as the start of an address as well as
			// it does as a user.
			t.Skip()
		}
		dsn := user + ":" + before + marker + after + "@" + rest
		if strings.Count(dsn, marker) != 1 {
			t.Skip()
		}
		o := Options{DSN: dsn, User: "u"}
		if _, err := o.Config(); err != nil {
			if strings.Contains(err.Error(), marker) {
				t.Fatalf("Config(%q) error shows the password: %v", dsn, err)
			}
			return
		}
		if s := o.String(); strings.Contains(s, marker) {
			t.Fatalf("String() of %q shows the password: %q", dsn, s)
		}
	})
}
