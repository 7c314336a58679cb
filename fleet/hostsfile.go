package fleet

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/internal/connopt"
)

// target is one server named in a --hosts file or a -h list. Empty fields
// fall back to the shared connection options (flags, [client], option files).
type target struct {
	Name string
	connopt.Server
}

// defaults are the [client] section of a hosts file: credentials (User,
// Password) shared by every target that does not name its own.
type defaults = connopt.Server

// targets lists the servers a --hosts file names or, without one, a -h list.
func targets(hostsFile, hostList string) ([]target, defaults, error) {
	if hostsFile == "" {
		ts, err := splitHosts(hostList)
		return ts, defaults{}, err
	}
	f, err := os.Open(hostsFile)
	if err != nil {
		return nil, defaults{}, fmt.Errorf("--hosts: %v", err)
	}
	defer f.Close()
	ts, def, err := parseHostsFile(f)
	if err != nil {
		return nil, def, fmt.Errorf("--hosts %s: %v", hostsFile, err)
	}
	return ts, def, nil
}

// splitHosts reads a -h value: "db1,db2:3307,db3".
func splitHosts(list string) ([]target, error) {
	var ts []target
	for _, h := range strings.Split(list, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		t, err := hostTarget(h)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// parseHostsFile reads one server per line: "host[:port]" or a DSN, followed
// by optional key=value words (name, user, password, socket, port). Blank
// lines and '#' comments are skipped; key=value lines under [client] give the
// shared user and password, like an option file, and server lines may follow
// them in the same section.
func parseHostsFile(r io.Reader) ([]target, defaults, error) {
	var (
		ts      []target
		def     defaults
		section string
	)
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		var err error
		if isSetting(line) {
			err = setDefault(&def, section, line)
		} else {
			var t target
			t, err = targetLine(line)
			ts = append(ts, t)
		}
		if err != nil {
			return nil, def, fmt.Errorf("line %d: %v", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, def, err
	}
	if len(ts) == 0 {
		return nil, def, fmt.Errorf("names no server (one host[:port] or DSN per line)")
	}
	return ts, def, nil
}

func setDefault(d *defaults, section, line string) error {
	k, v, _ := strings.Cut(line, "=")
	if section != "client" && section != "mytop" {
		// Only the key: the value may be a password.
		return fmt.Errorf("%s=…: settings belong in a [client] section; a server line starts with host[:port] or a DSN", strings.TrimSpace(k))
	}
	switch strings.TrimSpace(k) {
	case "user":
		d.User = unquote(v)
	case "password":
		d.Password, d.PasswordSet = unquote(v), true
	default:
		return fmt.Errorf("[client] %s: only user and password are shared in a hosts file", strings.TrimSpace(k))
	}
	return nil
}

func targetLine(line string) (target, error) {
	words := strings.Fields(line)
	var t target
	var err error
	if isDSN(words[0]) {
		t = target{Name: dsnName(words[0]), Server: connopt.Server{DSN: words[0]}}
	} else if t, err = hostTarget(words[0]); err != nil {
		return t, err
	}
	for i, w := range words[1:] {
		if !strings.Contains(w, "=") {
			// Not quoted: it may be the rest of a password with a space.
			return t, fmt.Errorf("word %d after the host is not key=value", i+1)
		}
		if err := t.set(w); err != nil {
			return t, err
		}
	}
	return t, nil
}

func (t *target) set(word string) error {
	k, v, _ := strings.Cut(word, "=")
	v = unquote(v)
	switch k {
	case "name":
		t.Name = v
	case "user":
		t.User = v
	case "password":
		t.Password, t.PasswordSet = v, true
	case "socket":
		t.Socket = v
	case "port":
		p, err := strconv.Atoi(v)
		if err != nil || p <= 0 || p > 65535 {
			return fmt.Errorf("port %q is not a TCP port", v)
		}
		t.Port = p
	default:
		return fmt.Errorf("unknown key %q (name, user, password, socket, port)", k)
	}
	return nil
}

// isSetting tells "user = x" from "db1 user=x": a setting's key is one word.
func isSetting(line string) bool {
	k, _, ok := strings.Cut(line, "=")
	k = strings.TrimSpace(k)
	return ok && !strings.ContainsAny(k, " \t") && !isDSN(k)
}

func isDSN(w string) bool { return strings.Contains(w, "@") || strings.Contains(w, "(") }

// hostTarget reads "host", "host:port" or "[v6]:port".
func hostTarget(s string) (target, error) {
	h, p, err := net.SplitHostPort(s)
	if err != nil {
		return target{Name: s, Server: connopt.Server{Host: strings.Trim(s, "[]")}}, nil
	}
	port, err := strconv.Atoi(p)
	if err != nil || port <= 0 || port > 65535 {
		// The host alone: "password:secret" would otherwise be echoed.
		return target{}, fmt.Errorf("%q: what follows its ':' is not a TCP port (1-65535)", h)
	}
	return target{Name: s, Server: connopt.Server{Host: h, Port: port}}, nil
}

// dsnName labels a DSN server by its address only, never its credentials.
func dsnName(dsn string) string {
	if i := strings.LastIndex(dsn, "@"); i >= 0 {
		dsn = dsn[i+1:]
	}
	if i := strings.Index(dsn, "("); i >= 0 {
		if j := strings.Index(dsn[i:], ")"); j > 0 {
			return dsn[i+1 : i+j]
		}
	}
	return strings.TrimSuffix(dsn, "/")
}

func unquote(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
