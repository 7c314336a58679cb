package connopt

import (
	"os"
	"strings"
	"unsafe"
)

// ScrubPasswordArgs overwrites a password given on the command line in the
// process's own argv memory, as the mysql client does, so `ps` and
// /proc/PID/cmdline stop showing it: "-pSECRET", "--password=SECRET" and the
// password inside "--dsn user:SECRET@tcp(…)/". On Linux, Go's os.Args
// strings point into that memory, so writing through them changes what ps
// reads. It returns the arguments with their passwords intact, copied first.
func ScrubPasswordArgs() []string {
	args := make([]string, len(os.Args))
	for i, a := range os.Args {
		args[i] = strings.Clone(a)
	}
	scrubArgs(os.Args[1:])
	return args
}

// scrubArgs overwrites, in place, the passwords args carry.
func scrubArgs(args []string) {
	for i, a := range args {
		if a == "--" {
			return
		}
		if n := passwordOffset(a); n > 0 && n < len(a) {
			overwrite(a[n:])
		}
		dsn := ""
		switch {
		case a == "--dsn" || a == "-dsn":
			if i+1 < len(args) {
				dsn = args[i+1]
			}
		case strings.HasPrefix(a, "--dsn="):
			dsn = a[len("--dsn="):]
		case strings.HasPrefix(a, "-dsn="):
			dsn = a[len("-dsn="):]
		}
		if from, to := dsnPassword(dsn); to > from {
			overwrite(dsn[from:to])
		}
	}
}

// passwordOffset is where the password starts in a "-pSECRET" or
// "--password=SECRET" argument, or 0.
func passwordOffset(a string) int {
	switch {
	case strings.HasPrefix(a, "--password="):
		return len("--password=")
	case strings.HasPrefix(a, "-p") && !strings.HasPrefix(a, "--"):
		return 2
	}
	return 0
}

// dsnPassword is where the password is in a go-sql-driver DSN
// (user:password@net(addr)/db), found as the driver finds it: after the
// first ':' of what precedes the last '@' before the last '/'. A '/' in the
// password leaves the driver to read it differently, so without a '/' after
// the '@' the last '@' is taken: the password is scrubbed either way.
func dsnPassword(dsn string) (from, to int) {
	head := dsn
	if i := strings.LastIndexByte(dsn, '/'); i >= 0 && strings.LastIndexByte(dsn[:i], '@') >= 0 {
		head = dsn[:i]
	}
	at := strings.LastIndexByte(head, '@')
	if at < 0 {
		return 0, 0
	}
	colon := strings.IndexByte(head[:at], ':')
	if colon < 0 {
		return 0, 0
	}
	return colon + 1, at
}

func overwrite(s string) {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	for i := range b {
		b[i] = 'x'
	}
}
