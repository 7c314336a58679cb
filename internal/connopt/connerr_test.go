package connopt

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"
)

func TestDescribeConnError(t *testing.T) {
	tests := []struct {
		name string
		err  error
		// tcp: the login went over TCP without TLS.
		tcp  bool
		want string
	}{
		{"access denied", &mysql.MySQLError{Number: 1045, Message: "Access denied for user 'app'@'10.0.0.9' (using password: YES)"},
			false, "access denied for user 'app'@'10.0.0.9' (check the password)"},
		{"access denied over plain TCP", &mysql.MySQLError{Number: 1045, Message: "Access denied for user 'app'@'10.0.0.9' (using password: YES)"},
			true, "access denied for user 'app'@'10.0.0.9' (check the password; the connection was not encrypted, so if the server requires TLS use --ssl-mode=REQUIRED)"},
		{"access denied without a password", &mysql.MySQLError{Number: 1045, Message: "Access denied for user 'app'@'localhost' (using password: NO)"},
			false, "access denied for user 'app'@'localhost' (no password was given: use -p)"},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)},
			false, "cannot connect to 127.0.0.1:3307: connection refused"},
		{"unknown host", &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "db9.invalid", IsNotFound: true}},
			false, "unknown host db9.invalid"},
		{"timeout", fmt.Errorf("dial: %w", context.DeadlineExceeded), false, "cannot connect to 127.0.0.1:3307: timed out"},
		{"secure transport", &mysql.MySQLError{Number: 3159, Message: "Connections using insecure transport are prohibited"},
			true, "127.0.0.1:3307: server requires TLS (use --ssl-mode=REQUIRED)"},
		{"no TLS on server", mysql.ErrNoTLS, false, "cannot connect to 127.0.0.1:3307: TLS requested but the server does not support it"},
		{"blocked account", &mysql.MySQLError{Number: 4150, Message: "User is blocked because of too many credential errors; unblock with 'ALTER USER / FLUSH PRIVILEGES'"},
			false, "127.0.0.1:3307 blocked the account after too many wrong passwords (max_password_errors; FLUSH PRIVILEGES unblocks it)"},
		{"blocked host", &mysql.MySQLError{Number: 1129, Message: "Host '10.0.0.9' is blocked because of many connection errors"},
			false, "127.0.0.1:3307 blocked this client host after too many connection errors (max_connect_errors; FLUSH HOSTS unblocks it)"},
		{"too many", &mysql.MySQLError{Number: 1040, Message: "Too many connections"}, false, "127.0.0.1:3307 has too many connections"},
		{"missing socket", &net.OpError{Op: "dial", Net: "unix", Err: os.NewSyscallError("connect", syscall.ENOENT)},
			false, "cannot connect to 127.0.0.1:3307: no such socket (is the server running? use -h 127.0.0.1 -P PORT for TCP)"},
		{"other", errors.New("boom\nsecond line"), false, "cannot connect to 127.0.0.1:3307: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DescribeConnError(tt.err, "127.0.0.1:3307", tt.tcp); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDescribeRealRefusedConnection(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = net.Dial("tcp", addr)
	want := "cannot connect to " + addr + ": connection refused"
	if got := DescribeConnError(err, addr, true); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
