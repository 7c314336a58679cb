package connopt

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"os/user"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// defaultSockets are where distributions put the server socket; the first
// that exists is used, like a client built for this machine would.
var defaultSockets = []string{
	"/run/mysqld/mysqld.sock", "/var/run/mysqld/mysqld.sock",
	"/tmp/mysql.sock", "/var/lib/mysql/mysql.sock",
}

const connectTimeout = 5 * time.Second

// Config builds the driver configuration. Call Resolve first to include the
// environment and option files.
func (o Options) Config() (*mysql.Config, error) {
	cfg := mysql.NewConfig()
	if o.DSN != "" {
		if dsnMisreadsPassword(o.DSN) {
			return nil, errors.New("invalid --dsn: the '/' in the password reads as the one before the database name; end the DSN with '/' (user:password@tcp(host:port)/)")
		}
		parsed, err := mysql.ParseDSN(o.DSN)
		if err != nil {
			return nil, fmt.Errorf("invalid --dsn: %v", redactDSNError(err, o.DSN))
		}
		cfg = parsed
	} else {
		cfg.Net, cfg.Addr = o.network()
	}
	if o.User != "" || cfg.User == "" {
		cfg.User = o.User
	}
	if cfg.User == "" {
		cfg.User = loginName()
	}
	if o.PasswordSet {
		cfg.Passwd = o.Password
	}
	if o.Database != "" {
		cfg.DBName = o.Database
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = connectTimeout
	}
	cfg.MultiStatements = false
	if o.DSN == "" || o.SSLMode != "" || o.SSLCA != "" {
		tlsCfg, err := o.tlsConfig(cfg)
		if err != nil {
			return nil, err
		}
		cfg.TLS, cfg.TLSConfig = tlsCfg, ""
		cfg.AllowFallbackToPlaintext = tlsCfg != nil && o.sslMode() == "PREFERRED"
	}
	return cfg, nil
}

// network picks TCP or the Unix socket the way the mysql client does: an
// empty host or "localhost" means the socket unless TCP was asked for.
func (o Options) network() (string, string) {
	useSocket := o.Protocol == "socket" || (o.Protocol != "tcp" && isLocalHost(o.Host))
	if useSocket {
		if o.Socket != "" {
			return "unix", o.Socket
		}
		return "unix", defaultSocket()
	}
	host := o.Host
	if isLocalHost(host) {
		host = "127.0.0.1"
	}
	port := o.Port
	if port == 0 {
		port = 3306
	}
	return "tcp", net.JoinHostPort(host, strconv.Itoa(port))
}

func defaultSocket() string {
	for _, p := range defaultSockets {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return defaultSockets[0]
}

func loginName() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}

// sslMode is the effective mode: a CA without a mode means verify it.
func (o Options) sslMode() string {
	mode := strings.ToUpper(strings.ReplaceAll(o.SSLMode, "-", "_"))
	if mode == "" && o.SSLCA != "" {
		return "VERIFY_CA"
	}
	if mode == "" {
		return "PREFERRED"
	}
	return mode
}

// tlsConfig maps --ssl-mode and the key files to a tls.Config (nil: no TLS).
func (o Options) tlsConfig(cfg *mysql.Config) (*tls.Config, error) {
	mode := o.sslMode()
	var t *tls.Config
	switch mode {
	case "DISABLED":
		return nil, nil
	case "PREFERRED":
		if cfg.Net == "unix" {
			return nil, nil // a local socket gains nothing from TLS
		}
		t = &tls.Config{InsecureSkipVerify: true}
	case "REQUIRED":
		t = &tls.Config{InsecureSkipVerify: true}
	case "VERIFY_CA", "VERIFY_IDENTITY":
		roots, err := o.rootCAs(mode)
		if err != nil {
			return nil, err
		}
		t = &tls.Config{RootCAs: roots}
		if mode == "VERIFY_CA" {
			t.InsecureSkipVerify = true
			t.VerifyPeerCertificate = verifyChainOnly(roots)
		} else if host, _, err := net.SplitHostPort(cfg.Addr); err == nil {
			t.ServerName = host
		}
	default:
		return nil, fmt.Errorf("invalid --ssl-mode %q (want DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY)", o.SSLMode)
	}
	if o.SSLCert != "" || o.SSLKey != "" {
		pair, err := tls.LoadX509KeyPair(o.SSLCert, o.SSLKey)
		if err != nil {
			return nil, fmt.Errorf("--ssl-cert/--ssl-key: %v", err)
		}
		t.Certificates = []tls.Certificate{pair}
	}
	return t, nil
}

// rootCAs loads --ssl-ca; VERIFY_IDENTITY may use the system roots instead.
func (o Options) rootCAs(mode string) (*x509.CertPool, error) {
	if o.SSLCA == "" {
		if mode == "VERIFY_CA" {
			return nil, errors.New("--ssl-mode=VERIFY_CA needs --ssl-ca")
		}
		return nil, nil
	}
	pem, err := os.ReadFile(o.SSLCA)
	if err != nil {
		return nil, fmt.Errorf("--ssl-ca: %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ssl-ca %s: no PEM certificates", o.SSLCA)
	}
	return pool, nil
}

// verifyChainOnly checks the server certificate against roots without the
// host name, which is what VERIFY_CA means.
func verifyChainOnly(roots *x509.CertPool) func([][]byte, [][]*x509.Certificate) error {
	return func(raw [][]byte, _ [][]*x509.Certificate) error {
		if len(raw) == 0 {
			return errors.New("server sent no certificate")
		}
		certs := make([]*x509.Certificate, len(raw))
		for i, b := range raw {
			c, err := x509.ParseCertificate(b)
			if err != nil {
				return err
			}
			certs[i] = c
		}
		inter := x509.NewCertPool()
		for _, c := range certs[1:] {
			inter.AddCert(c)
		}
		_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
		return err
	}
}

// AddressOf is where a configuration connects: host:port or the socket path,
// never credentials.
func AddressOf(cfg *mysql.Config) string {
	return cfg.Addr
}

// dsnMisreadsPassword reports a DSN like user:pa/ss@tcp(host) that lacks its
// final '/'. The driver splits at the last '/', finds no '@' before it and
// takes the user and a piece of the password for the network, address or
// database name, where its errors and String() would show them. A ':' inside
// a net(address is the address's port, not a password's start.
func dsnMisreadsPassword(dsn string) bool {
	colon := strings.IndexByte(dsn, ':')
	slash := strings.LastIndexByte(dsn, '/')
	return colon >= 0 && !opensNetAddress(dsn[:colon]) &&
		colon < slash && slash < strings.LastIndexByte(dsn, '@') && !strings.Contains(dsn[:slash], "@")
}

// opensNetAddress reports whether s begins a net(address such as tcp(db2 or
// unix(/run: a network name of letters and digits, then '('. A user named
// "(" or "a b(" does not.
func opensNetAddress(s string) bool {
	net, _, ok := strings.Cut(s, "(")
	if !ok || net == "" {
		return false
	}
	for _, c := range []byte(net) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// redactDSNError keeps a DSN's password out of a parse error.
func redactDSNError(err error, dsn string) string {
	msg := err.Error()
	if at := strings.LastIndex(dsn, "@"); at > 0 {
		if colon := strings.IndexByte(dsn[:at], ':'); colon >= 0 && colon+1 < at {
			msg = strings.ReplaceAll(msg, dsn[colon+1:at], "***")
		}
	}
	return msg
}
