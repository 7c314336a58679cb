package analyzers

import (
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// versionAtLeast reports whether the server's version ("10.11.19-MariaDB",
// "8.0.36-28") is major.minor or later; ok is false when it is not known.
func versionAtLeast(s *snapshot.Snapshot, major, minor int) (atLeast, ok bool) {
	v := s.Server.Version
	if v == "" {
		v = s.Variables["version"]
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false, false
	}
	ma, err1 := strconv.Atoi(leadingDigits(parts[0]))
	mi, err2 := strconv.Atoi(leadingDigits(parts[1]))
	if err1 != nil || err2 != nil {
		return false, false
	}
	return ma > major || (ma == major && mi >= minor), true
}

// isMariaDB tells MariaDB by the flavour, else by its version string.
func isMariaDB(s *snapshot.Snapshot) bool {
	if s.Server.Flavor != "" {
		return s.Server.Flavor == snapshot.FlavorMariaDB
	}
	return strings.Contains(strings.ToLower(s.Server.Version+s.Variables["version"]), "mariadb")
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}
