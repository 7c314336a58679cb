package connopt

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Options are the connection settings, spelled like the mysql client's
// options. Zero values mean "not given".
type Options struct {
	Host     string
	Port     int
	User     string
	Password string
	// PasswordSet says Password was given, so an empty password counts.
	PasswordSet bool
	// NeedsPasswordPrompt is set by a bare -p/--password (or a "password" line
	// without a value): the command asks on the terminal and fills Password.
	NeedsPasswordPrompt bool
	Socket              string
	Database            string
	// Protocol is "tcp", "socket" or empty (decided from host and port).
	Protocol string

	DefaultsFile      string
	DefaultsExtraFile string
	NoDefaults        bool
	// LoginPath names a group of the login path file (~/.mylogin.cnf) to
	// read besides [client] and [mytop]; NoLoginPaths skips that file.
	LoginPath    string
	NoLoginPaths bool

	SSLMode string // DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY
	SSLCA   string
	SSLCert string
	SSLKey  string

	// DSN is a complete go-sql-driver DSN; option files and environment are
	// then not read. User, password, database and TLS options given beside
	// it override the DSN's; host, port and socket do not.
	DSN string
}

// Resolve fills what the command line left out from the environment and the
// option files; precedence is flags > environment > option files. It returns
// warnings to show the user, e.g. a password file others can read.
func (o Options) Resolve() (Options, []string, error) {
	home, _ := os.UserHomeDir()
	login := ""
	if !o.NoLoginPaths {
		login = loginFilePath(os.Getenv, home)
	}
	return o.resolveWith(os.Getenv, o.optionFiles(home), login)
}

// optionFile is one file to read and whether it must exist.
type optionFile struct {
	path     string
	required bool
}

// optionFiles lists the files the mysql client would read, in order.
func (o Options) optionFiles(home string) []optionFile {
	switch {
	case o.NoDefaults:
		return nil
	case o.DefaultsFile != "":
		return []optionFile{{o.DefaultsFile, true}}
	}
	files := []optionFile{{"/etc/my.cnf", false}, {"/etc/mysql/my.cnf", false}}
	if o.DefaultsExtraFile != "" {
		files = append(files, optionFile{o.DefaultsExtraFile, true})
	}
	if home != "" {
		files = append(files, optionFile{filepath.Join(home, ".my.cnf"), false})
	}
	return files
}

func (o Options) resolve(getenv func(string) string, files []optionFile) (Options, []string, error) {
	return o.resolveWith(getenv, files, "")
}

// resolveWith reads the option files, then the login path file (read even
// with --no-defaults or --defaults-file, as the mysql client does).
func (o Options) resolveWith(getenv func(string) string, files []optionFile, loginFile string) (Options, []string, error) {
	if o.DSN != "" {
		return o, nil, nil
	}
	r := newOptionReader()
	for _, f := range files {
		if err := r.readFile(f.path, f.required, 0); err != nil {
			return o, r.warnings, err
		}
	}
	if err := r.readLoginFile(loginFile, o.LoginPath); err != nil {
		return o, r.warnings, err
	}
	var out Options
	if err := out.applyFileOptions(r.values); err != nil {
		return o, r.warnings, err
	}
	if err := out.applyEnv(getenv); err != nil {
		return o, r.warnings, err
	}
	out.applyFlags(o)
	return out, r.warnings, nil
}

// applyFileOptions takes the keys the client understands; others are ignored.
func (o *Options) applyFileOptions(values map[string]optionValue) error {
	text := map[string]*string{
		"host": &o.Host, "user": &o.User, "socket": &o.Socket, "database": &o.Database,
		"ssl-mode": &o.SSLMode, "ssl-ca": &o.SSLCA, "ssl-cert": &o.SSLCert, "ssl-key": &o.SSLKey,
		"protocol": &o.Protocol,
	}
	for key, v := range values {
		switch {
		case text[key] != nil:
			*text[key] = v.value
		case key == "port":
			port, err := parsePort(v.value)
			if err != nil {
				return fmt.Errorf("option file %s: %v", v.file, err)
			}
			o.Port = port
		case key == "password":
			o.Password, o.PasswordSet, o.NeedsPasswordPrompt = v.value, v.hasValue, !v.hasValue
		}
	}
	if o.SSLMode == "" {
		o.SSLMode = legacySSLMode(values)
	}
	o.Protocol = strings.ToLower(o.Protocol)
	return nil
}

// legacySSLMode reads the MariaDB client's TLS switches, which predate
// ssl-mode; used only when no ssl-mode is given.
func legacySSLMode(values map[string]optionValue) string {
	on := func(key string) bool {
		v, ok := values[key]
		return ok && !(v.hasValue && isFalse(v.value))
	}
	_, skip := values["skip-ssl"]
	switch {
	case skip || (values["ssl"].hasValue && isFalse(values["ssl"].value)):
		return "DISABLED"
	case on("ssl-verify-server-cert"):
		return "VERIFY_IDENTITY"
	case on("ssl"):
		return "REQUIRED"
	}
	return ""
}

func isFalse(s string) bool {
	switch strings.ToLower(s) {
	case "0", "off", "false", "no":
		return true
	}
	return false
}

// applyEnv reads the mysql client's environment variables.
func (o *Options) applyEnv(getenv func(string) string) error {
	if v := getenv("MYSQL_HOST"); v != "" {
		o.Host = v
	}
	if v := getenv("MYSQL_TCP_PORT"); v != "" {
		port, err := parsePort(v)
		if err != nil {
			return fmt.Errorf("MYSQL_TCP_PORT: %v", err)
		}
		o.Port = port
	}
	if v := getenv("MYSQL_UNIX_PORT"); v != "" {
		o.Socket = v
	}
	if v := getenv("MYSQL_PWD"); v != "" {
		o.Password, o.PasswordSet, o.NeedsPasswordPrompt = v, true, false
	}
	return nil
}

// applyFlags lays the command line over everything else. As with the mysql
// client, a port given on the command line to a local host means TCP.
func (o *Options) applyFlags(f Options) {
	for dst, src := range map[*string]string{
		&o.Host: f.Host, &o.User: f.User, &o.Socket: f.Socket, &o.Database: f.Database,
		&o.SSLMode: f.SSLMode, &o.SSLCA: f.SSLCA, &o.SSLCert: f.SSLCert, &o.SSLKey: f.SSLKey,
		&o.Protocol: strings.ToLower(f.Protocol),
	} {
		if src != "" {
			*dst = src
		}
	}
	if f.Port != 0 {
		o.Port = f.Port
		if o.Protocol == "" && f.Socket == "" && isLocalHost(o.Host) {
			o.Protocol = "tcp"
		}
	}
	switch {
	case f.NeedsPasswordPrompt:
		o.Password, o.PasswordSet, o.NeedsPasswordPrompt = "", false, true
	case f.PasswordSet:
		o.Password, o.PasswordSet, o.NeedsPasswordPrompt = f.Password, true, false
	}
	o.DefaultsFile, o.DefaultsExtraFile, o.NoDefaults = f.DefaultsFile, f.DefaultsExtraFile, f.NoDefaults
	o.LoginPath, o.NoLoginPaths = f.LoginPath, f.NoLoginPaths
}

func isLocalHost(h string) bool { return h == "" || h == "localhost" }

func parsePort(s string) (int, error) {
	p, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || p <= 0 || p > 65535 {
		return 0, fmt.Errorf("invalid port %q", s)
	}
	return p, nil
}

// String describes where and as whom the connection goes, never with the
// password.
func (o Options) String() string {
	cfg, err := o.Config()
	if err != nil {
		return fmt.Sprintf("%s@%s", o.User, o.Host)
	}
	s := cfg.User + "@" + AddressOf(cfg)
	if o.SSLMode != "" {
		s += " ssl-mode=" + strings.ToUpper(o.SSLMode)
	}
	return s
}
