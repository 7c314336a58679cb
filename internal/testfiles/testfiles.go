// Package testfiles holds the file chores tests of several packages share:
// copying a fixture into a test's directory, a file's size, the length of
// a recording.
package testfiles

import (
	"os"
	"testing"
)

// CopyFile copies from to to (mode 0600), failing t on any error.
func CopyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Size is the size of the file at path, 0 when it cannot be read.
func Size(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// Lengther is what Len opens: a recording's reader (recording.Open), kept
// as an interface so the recording package's own tests can use Len.
type Lengther interface {
	Len() int
	Close() error
}

// Len opens path with open and returns how many frames it holds.
func Len[R Lengther](t testing.TB, open func(string) (R, error), path string) int {
	t.Helper()
	rd, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	return rd.Len()
}
