//go:build !linux

package testdb

import "testing"

// StartNamespaced needs Linux's namespaces.
func StartNamespaced(t testing.TB, hostname string, extraArgs ...string) *Server {
	t.Skip("namespaces are Linux's")
	return nil
}
