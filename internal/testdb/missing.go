package testdb

import (
	"os"
	"testing"
)

// RequireToolsEnv is set by scripts/test, the README's test command, which
// installs every tool the tests drive: there a missing tool is a broken set-up
// and fails the test, where a developer's bare `go test` skips it.
const RequireToolsEnv = "MYTOP_REQUIRE_TOOLS"

// Missing ends t for want of a tool or package, saying which: a failure
// under scripts/test (RequireToolsEnv set), a skip elsewhere.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv(RequireToolsEnv) != "" {
		t.Fatalf(format+" (scripts/test installs it: was the install refused?)", args...)
	}
	t.Skipf(format, args...)
}
