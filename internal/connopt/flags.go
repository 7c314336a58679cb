package connopt

import (
	"flag"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/go-sql-driver/mysql"
)

// Flags are the mysql-client style connection options of a command line.
type Flags struct {
	o      Options
	prompt bool
	pass   optionalString
}

// optionalString tells "--password=" (empty password) from no flag at all.
type optionalString struct {
	v   string
	set bool
}

func (s *optionalString) String() string     { return "" } // never echo a password
func (s *optionalString) Set(v string) error { s.v, s.set = v, true; return nil }

// AddFlags registers the connection options on fs, spelled as the mysql
// client spells them.
func AddFlags(fs *flag.FlagSet) *Flags {
	c := &Flags{}
	fs.StringVar(&c.o.Host, "host", "", "server host (-h)")
	fs.IntVar(&c.o.Port, "port", 0, "server TCP port (-P)")
	fs.StringVar(&c.o.User, "user", "", "user name (-u)")
	fs.Var(&c.pass, "password", "password (-pPASSWORD; a bare -p prompts)")
	fs.BoolVar(&c.prompt, "password-prompt", false, "ask for the password without echo (-p)")
	fs.StringVar(&c.o.Socket, "socket", "", "unix socket path (-S)")
	fs.StringVar(&c.o.Database, "database", "", "default database (-D)")
	fs.StringVar(&c.o.Protocol, "protocol", "", "tcp or socket")
	fs.StringVar(&c.o.DefaultsFile, "defaults-file", "", "read only this option file")
	fs.StringVar(&c.o.DefaultsExtraFile, "defaults-extra-file", "", "read this option file after the global ones")
	fs.BoolVar(&c.o.NoDefaults, "no-defaults", false, "read no option files (the login path file still is)")
	fs.StringVar(&c.o.LoginPath, "login-path", "", "read this group of ~/.mylogin.cnf (mysql_config_editor) too")
	fs.BoolVar(&c.o.NoLoginPaths, "no-login-paths", false, "do not read ~/.mylogin.cnf")
	fs.StringVar(&c.o.SSLMode, "ssl-mode", "", "DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY")
	fs.StringVar(&c.o.SSLCA, "ssl-ca", "", "CA certificate file")
	fs.StringVar(&c.o.SSLCert, "ssl-cert", "", "client certificate file")
	fs.StringVar(&c.o.SSLKey, "ssl-key", "", "client key file")
	fs.StringVar(&c.o.DSN, "dsn", "", "go-sql-driver DSN (user:pass@tcp(host:port)/)")
	return c
}

// Config resolves the options (flags > environment > option files), asks for
// a password when told to, and returns the driver configuration. Warnings go
// to stderr.
func (c *Flags) Config(stderr io.Writer) (*mysql.Config, string, error) {
	o := c.o
	if c.pass.set {
		o.Password, o.PasswordSet = c.pass.v, true
	}
	o.NeedsPasswordPrompt = c.prompt
	o, warnings, err := o.Resolve()
	if err != nil {
		return nil, "", err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "mytop-go: warning: %s\n", w)
	}
	if o.NeedsPasswordPrompt {
		p, err := promptPassword(stderr)
		if err != nil {
			return nil, "", err
		}
		o.Password, o.PasswordSet = p, true
	}
	cfg, err := o.Config()
	if err != nil {
		return nil, "", err
	}
	return cfg, o.String(), nil
}

// Reload resolves the options again, as Config does, for a monitor that
// runs on after the server refused its password: a password rotated in an
// option file, the login path file or MYSQL_PWD is then taken. It never
// asks on the terminal (a prompted password cannot be read again) and
// prints no warnings.
func (c *Flags) Reload() (*mysql.Config, error) {
	if c.prompt {
		return nil, fmt.Errorf("the password was asked on the terminal: it cannot be read again")
	}
	o := c.o
	if c.pass.set {
		o.Password, o.PasswordSet = c.pass.v, true
	}
	o, _, err := o.Resolve()
	if err != nil {
		return nil, err
	}
	if o.NeedsPasswordPrompt {
		return nil, fmt.Errorf("the option files ask for the password on the terminal")
	}
	return o.Config()
}

func promptPassword(stderr io.Writer) (string, error) {
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return "", fmt.Errorf("-p needs a terminal to ask for the password; use MYSQL_PWD or an option file")
	}
	fmt.Fprint(stderr, "Enter password: ")
	b, err := term.ReadPassword(fd)
	fmt.Fprintln(stderr)
	if err != nil {
		return "", fmt.Errorf("reading password: %v", err)
	}
	return string(b), nil
}

// Hosts is the --host value as given; a fleet names several servers in it.
func (c *Flags) Hosts() string { return c.o.Host }

// Server is one server of several: its own address, and credentials that
// stand over the command line's when given.
type Server struct {
	Host, Socket, DSN string
	Port              int
	User, Password    string
	PasswordSet       bool
}

// For returns the flags with srv's own settings laid over the shared ones;
// def (a hosts file's [client] credentials) fills a user and password that
// neither srv nor the command line gives.
func (c Flags) For(srv, def Server) *Flags {
	c.o.Host, c.o.Port, c.o.DSN = srv.Host, srv.Port, srv.DSN
	if srv.Socket != "" {
		c.o.Socket = srv.Socket
	}
	if srv.User != "" {
		c.o.User = srv.User
	} else if def.User != "" && c.o.User == "" {
		c.o.User = def.User
	}
	switch {
	case srv.PasswordSet:
		c.pass = optionalString{v: srv.Password, set: true}
	case def.PasswordSet && !c.pass.set:
		c.pass = optionalString{v: def.Password, set: true}
	}
	return &c
}
