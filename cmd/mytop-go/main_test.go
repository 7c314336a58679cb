package main

import (
	"os"
	"testing"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// TestMain lets the end-to-end tests, which mostly wait for a screen or a
// server (t.Parallel), run together instead of GOMAXPROCS at a time.
func TestMain(m *testing.M) {
	code := testdb.Main(m, 16)
	removeBinary()
	os.Exit(code)
}
