package analyzers

import (
	"os"
	"testing"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// TestMain lets the integration tests, which mostly wait on their servers
// (t.Parallel), run all at once instead of GOMAXPROCS at a time; the
// CPU-heavy ones take testdb.Heavy and run one by one.
func TestMain(m *testing.M) {
	os.Exit(testdb.Main(m, 48))
}
