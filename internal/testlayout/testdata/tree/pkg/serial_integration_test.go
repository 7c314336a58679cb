package pkg

import (
	"testing"

	"example.com/tree/internal/testdb"
)

func TestWaitsInParallel(t *testing.T) {
	t.Parallel()
	testdb.Start(t)
}

func TestSaysWhySerial(t *testing.T) {
	// Serial: netem on lo is one for the machine.
	testdb.Start(t)
}

func TestSerialWithoutReason(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		t.Parallel() // a subtest's call does not make its parent parallel
		server(t)
	})
}
