package connopt

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"syscall"

	"github.com/go-sql-driver/mysql"
)

// Server errors that explain a failed login.
const (
	errAccessDenied       = 1045
	errDBAccessDenied     = 1044
	errHostNotPrivileged  = 1130
	errTooManyConnections = 1040
	// errSecureTransport is MySQL's refusal of plain TCP under
	// require_secure_transport, and MariaDB's since 11.4 (MDEV-30178);
	// earlier MariaDB answers errAccessDenied instead.
	errSecureTransport = 3159
	errHostBlocked     = 1129
	errUserBlocked     = 4150 // MariaDB, at max_password_errors
	errAccountLocked   = 3118
	errPasswordLocked  = 3955 // MySQL, at FAILED_LOGIN_ATTEMPTS
)

var accessDeniedUser = regexp.MustCompile(`for user ('[^']*'@'[^']*')`)

// DescribeConnError turns a connection failure into one clear line naming
// addr (host:port or socket path). It never includes a password: the driver's
// messages do not carry one, and server messages are reduced to their subject.
// unencryptedTCP says the login went over TCP without TLS, which MariaDB
// before 11.4 refuses under require_secure_transport as a wrong password.
func DescribeConnError(err error, addr string, unencryptedTCP bool) string {
	if err == nil {
		return ""
	}
	if me := (*mysql.MySQLError)(nil); errors.As(err, &me) {
		return describeServerRefusal(me, addr, unencryptedTCP)
	}
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("unknown host %s", dnsErr.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("cannot connect to %s: connection refused", addr)
	case errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOENT):
		return fmt.Sprintf("cannot connect to %s: no such socket (is the server running? use -h 127.0.0.1 -P PORT for TCP)", addr)
	case errors.Is(err, syscall.EACCES):
		return fmt.Sprintf("cannot connect to %s: permission denied", addr)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Sprintf("cannot connect to %s: timed out", addr)
	case errors.Is(err, mysql.ErrNoTLS):
		return fmt.Sprintf("cannot connect to %s: TLS requested but the server does not support it", addr)
	case strings.Contains(err.Error(), "x509:") || strings.Contains(err.Error(), "tls:"):
		return fmt.Sprintf("cannot connect to %s: TLS: %s", addr, firstLine(err.Error()))
	}
	return fmt.Sprintf("cannot connect to %s: %s", addr, firstLine(err.Error()))
}

func describeServerRefusal(me *mysql.MySQLError, addr string, unencryptedTCP bool) string {
	switch me.Number {
	case errAccessDenied:
		who := "this user"
		if m := accessDeniedUser.FindStringSubmatch(me.Message); m != nil {
			who = m[1]
		}
		if strings.Contains(me.Message, "using password: NO") {
			return fmt.Sprintf("access denied for user %s (no password was given: use -p)", who)
		}
		if unencryptedTCP {
			return fmt.Sprintf("access denied for user %s (check the password; the connection was not encrypted, so if the server requires TLS use --ssl-mode=REQUIRED)", who)
		}
		return fmt.Sprintf("access denied for user %s (check the password)", who)
	case errDBAccessDenied:
		return "access denied to the database: " + firstLine(me.Message)
	case errHostNotPrivileged:
		return fmt.Sprintf("%s refuses this client host: %s", addr, firstLine(me.Message))
	case errTooManyConnections:
		return fmt.Sprintf("%s has too many connections", addr)
	case errSecureTransport:
		return fmt.Sprintf("%s: server requires TLS (use --ssl-mode=REQUIRED)", addr)
	case errUserBlocked:
		return fmt.Sprintf("%s blocked the account after too many wrong passwords (max_password_errors; FLUSH PRIVILEGES unblocks it)", addr)
	case errAccountLocked:
		return fmt.Sprintf("%s: the account is locked (ALTER USER … ACCOUNT UNLOCK)", addr)
	case errPasswordLocked:
		return fmt.Sprintf("%s locked the account after too many wrong passwords (FAILED_LOGIN_ATTEMPTS; it unlocks after PASSWORD_LOCK_TIME, or ALTER USER … ACCOUNT UNLOCK)", addr)
	case errHostBlocked:
		return fmt.Sprintf("%s blocked this client host after too many connection errors (max_connect_errors; FLUSH HOSTS unblocks it)", addr)
	}
	return fmt.Sprintf("%s: %s", addr, firstLine(me.Error()))
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
