package connopt

import (
	"os"
	"strings"
	"unsafe"
)

// ScrubPasswordArgs overwrites a password given on the command line in the
// process's own argv memory, as the mysql client does, so `ps` and
// /proc/PID/cmdline stop showing it. On Linux, Go's os.Args strings point into
// that memory, so writing through them changes what ps reads. It returns the
// arguments with their passwords intact, copied first.
func ScrubPasswordArgs() []string {
	args := make([]string, len(os.Args))
	for i, a := range os.Args {
		args[i] = strings.Clone(a)
	}
	for _, a := range os.Args[1:] {
		if n := passwordOffset(a); n > 0 && n < len(a) {
			overwrite(a[n:])
		}
	}
	return args
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

func overwrite(s string) {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	for i := range b {
		b[i] = 'x'
	}
}
