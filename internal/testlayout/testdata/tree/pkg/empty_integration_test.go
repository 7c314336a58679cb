package pkg

import "testing"

func TestStartsNothing(t *testing.T) { t.Parallel() }
