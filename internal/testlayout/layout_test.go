package testlayout

import (
	"strings"
	"testing"
)

// TestServerTestsAreMarked holds the repository's tests to the layout: a
// file with a test that starts a MariaDB ends in ServerSuffix (or, in the
// command's package, begins with E2EPrefix when it drives the built binary),
// a marked file starts one, and every test that starts one runs in parallel
// or says why it cannot.
func TestServerTestsAreMarked(t *testing.T) {
	files, err := Read("../..")
	if err != nil {
		t.Fatal(err)
	}
	servers := 0
	for _, f := range files {
		if f.StartsServer {
			servers++
		}
	}
	// A resolver that lost its way would find no server test and pass.
	if servers < 50 {
		t.Fatalf("only %d test files start a server: the reader lost track of testdb's starters", servers)
	}
	if p := Problems(files); len(p) > 0 {
		t.Errorf("%d problems with the tests' layout (docs/testing.md):\n%s", len(p), strings.Join(p, "\n"))
	}
}

// TestProblemsOfASmallTree: the checks fail where they should, on a tree
// with each mistake once.
func TestProblemsOfASmallTree(t *testing.T) {
	files, err := Read("testdata/tree")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(Problems(files), "\n")
	for _, want := range []string{
		"pkg/unmarked_test.go: starts a server: name it …_integration_test.go",
		"pkg/empty_integration_test.go: named …_integration_test.go but no test of it starts a server",
		"pkg/serial_integration_test.go: TestSerialWithoutReason starts a server without t.Parallel()",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	for _, quiet := range []string{"TestWaitsInParallel", "TestSaysWhySerial", "helper_test.go"} {
		if strings.Contains(got, quiet) {
			t.Errorf("%s reported:\n%s", quiet, got)
		}
	}
}
