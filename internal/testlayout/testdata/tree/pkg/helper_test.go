package pkg

import (
	"testing"

	"example.com/tree/internal/testdb"
)

// server is a helper: a test calling it starts a server too.
func server(t *testing.T) *testdb.Server { return testdb.Start(t) }
