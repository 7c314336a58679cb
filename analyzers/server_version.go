package analyzers

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// version is the server's version, from the source's server info or its
// variables.
func (w *window) version() snapshot.Version { return serverVersion(w.snap) }

func serverVersion(s *snapshot.Snapshot) snapshot.Version {
	v := s.Server.Version
	if v == "" {
		v = s.Variables["version"]
	}
	return snapshot.ParseVersion(v)
}

// versionAtLeast reports whether the server's version ("10.11.19-MariaDB",
// "8.0.36-28", "26.7.0") is major.minor or later; ok is false when it is
// not known.
func versionAtLeast(s *snapshot.Snapshot, major, minor int) (atLeast, ok bool) {
	v := serverVersion(s)
	return v.AtLeast(major, minor, 0), v.Known
}

// isMariaDB tells MariaDB by the flavour, else by its version string.
func isMariaDB(s *snapshot.Snapshot) bool {
	if s.Server.Flavor != "" {
		return s.Server.Flavor == snapshot.FlavorMariaDB
	}
	return strings.Contains(strings.ToLower(s.Server.Version+s.Variables["version"]), "mariadb")
}
