package connopt

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseOptionLine(t *testing.T) {
	tests := []struct {
		line     string
		key      string
		value    string
		hasValue bool
	}{
		{"user=app", "user", "app", true},
		{"  user  =  app  ", "user", "app", true},
		{"ssl_mode=REQUIRED", "ssl-mode", "REQUIRED", true},
		{"loose-ssl-ca=/ca.pem", "ssl-ca", "/ca.pem", true},
		{`password="se#cret \"x\""`, "password", `se#cret "x"`, true},
		{`password='it''s'`, "password", "it", true},
		{"password=abc # trailing comment", "password", "abc", true},
		{`password=a\sb`, "password", "a b", true},
		{"password", "password", "", false},
		{"password=", "password", "", true},
		{"not an option line", "", "", false},
	}
	for _, tt := range tests {
		key, v := parseOptionLine(tt.line)
		if key != tt.key || v.value != tt.value || v.hasValue != tt.hasValue {
			t.Errorf("%q: got %q=%q (%v), want %q=%q (%v)", tt.line, key, v.value, v.hasValue, tt.key, tt.value, tt.hasValue)
		}
	}
}

func TestOptionFileIncludesAndGroups(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "conf.d/10-a.cnf", "", 0o600)
	writeFile(t, dir, "conf.d/20-b.cnf", "[client]\nuser=fromdir\n", 0o600)
	writeFile(t, dir, "conf.d/ignored.txt", "[client]\nuser=txt\n", 0o600)
	writeFile(t, dir, "inc.cnf", "[client]\nhost=included\n", 0o600)
	main := writeFile(t, dir, "my.cnf", strings.Join([]string{
		"# comment", "; comment", "[mysqld]", "user=mysql", "port=9999",
		"[client]", "port=3307", "garbage line here", "!include " + filepath.Join(dir, "inc.cnf"),
		"!includedir " + filepath.Join(dir, "conf.d"), "[mytop]", "port = 3308", "[mysqldump]", "user=dump",
	}, "\n"), 0o600)
	r := newOptionReader()
	if err := r.readFile(main, true, 0); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"host": "included", "user": "fromdir", "port": "3308"}
	for k, v := range want {
		if r.values[k].value != v {
			t.Errorf("%s = %q, want %q", k, r.values[k].value, v)
		}
	}
	if len(r.values) != len(want) {
		t.Errorf("unexpected keys: %v", r.values)
	}
}

func TestOptionFileIncludeLoopStops(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "loop.cnf")
	writeFile(t, dir, "loop.cnf", "!include "+self+"\n", 0o600)
	err := newOptionReader().readFile(self, true, 0)
	if err == nil || !strings.Contains(err.Error(), "too deep") {
		t.Errorf("got %v", err)
	}
}

func TestOptionFilePasswordPermissionWarning(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		text string
		mode uint32
		warn bool
	}{
		{"private file with password", "[client]\npassword=x\n", 0o600, false},
		{"world-readable file with password", "[client]\npassword=x\n", 0o644, true},
		{"group-readable file with password", "[client]\npassword=x\n", 0o640, true},
		{"world-readable file without password", "[client]\nuser=x\n", 0o644, false},
		{"password in a group we do not read", "[mysqldump]\npassword=x\n", 0o644, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeFile(t, dir, strings.Repeat("f", i+1)+".cnf", tt.text, fileMode(tt.mode))
			r := newOptionReader()
			if err := r.readFile(p, true, 0); err != nil {
				t.Fatal(err)
			}
			if got := len(r.warnings) > 0; got != tt.warn {
				t.Errorf("warnings %v, want warning=%v", r.warnings, tt.warn)
			}
			for _, w := range r.warnings {
				if strings.Contains(w, "=x") || !strings.Contains(w, "chmod 600") {
					t.Errorf("bad warning %q", w)
				}
			}
		})
	}
}

// quoteOption writes v so that parseOptionLine reads it back unchanged: the
// line must survive TrimSpace, the scanner's line split and the '#' comment.
func quoteOption(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\', '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FuzzOptionFile reads a fuzzed option file, writes back what it read in a
// canonical form and reads that again: the two readings must agree, so a key
// or value the reader normalises is a fixed point of its own normalisation.
// Inputs with !include are skipped, since following them would read files
// outside the test's own directory.
func FuzzOptionFile(f *testing.F) {
	f.Add("[client]\nuser=app\npassword=\"se#cret \\\"x\\\"\"\n[mysqld]\nport=9999\n")
	f.Add("# comment\n; comment\n[Client]\nloose_ssl_ca = /ca.pem # trailing\nhost='db1' x\nssl-mode\n")
	f.Add("[mytop]\nport = 3308\r\npassword=a\\sb\\\\c\\\n[client-mariadb]\nsocket=/run/mysqld/mysqld.sock\n")
	f.Add("[client]\nloose-loose-user=x\n  =nokey\nnot an option line\n[mysqldump]\nuser=dump\n")
	f.Fuzz(func(t *testing.T, text string) {
		if strings.Contains(text, "!include") {
			t.Skip()
		}
		dir := t.TempDir()
		first := newOptionReader()
		if err := first.readFile(writeFile(t, dir, "a.cnf", text, 0o600), true, 0); err != nil {
			return // lines over the scanner's limit; nothing was promised
		}
		var canon strings.Builder
		canon.WriteString("[client]\n")
		for key, v := range first.values {
			if key == "" || strings.ContainsAny(key, " \t=_") {
				t.Fatalf("key %q is not normalised", key)
			}
			if len(v.value) > len(text) {
				t.Fatalf("value %q longer than the file", v.value)
			}
			if !v.hasValue && v.value != "" {
				t.Fatalf("key %q has value %q but no '='", key, v.value)
			}
			// The reader strips one "loose-" prefix, so a key that still
			// starts with it needs another to read back as itself.
			canon.WriteString("loose-" + key)
			if v.hasValue {
				canon.WriteString("=" + quoteOption(v.value))
			}
			canon.WriteByte('\n')
		}
		second := newOptionReader()
		if err := second.readFile(writeFile(t, dir, "b.cnf", canon.String(), 0o600), true, 0); err != nil {
			t.Fatalf("canonical file: %v\n%s", err, canon.String())
		}
		if len(second.values) != len(first.values) {
			t.Fatalf("re-read %d keys, first read %d\n%s", len(second.values), len(first.values), canon.String())
		}
		for key, v := range first.values {
			w, ok := second.values[key]
			if !ok || w.value != v.value || w.hasValue != v.hasValue {
				t.Fatalf("key %q: first %q (%v), re-read %q (%v, present %v)", key, v.value, v.hasValue, w.value, w.hasValue, ok)
			}
		}
	})
}
