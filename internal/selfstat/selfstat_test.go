package selfstat

import (
	"regexp"
	"testing"
)

// The soak script parses this line; its shape is a contract.
func TestLineShape(t *testing.T) {
	re := regexp.MustCompile(`^goroutines ([1-9][0-9]*), heap [0-9]+\.[0-9] MB, from the OS [1-9][0-9]*\.[0-9] MB$`)
	if got := Line(); !re.MatchString(got) {
		t.Fatalf("Line() = %q, want it to match %s", got, re)
	}
}
