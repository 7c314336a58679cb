package snapshot

import (
	"strconv"
	"strings"
)

// Version is a server's version, parsed once for every check that depends
// on it. Numbers compare as numbers, so MySQL's calendar versions (26.7
// in July 2026, then 26.10, after 9.7) come after 9.x and take every
// spelling 8.4 does; MariaDB's 10.x, 11.x and 12.x are MariaDB's own line.
type Version struct {
	Major, Minor, Patch int
	MariaDB             bool
	// Known is false when the string held no major.minor.
	Known bool
}

// ParseVersion reads VERSION() or @@version ("8.0.36-28",
// "10.11.19-MariaDB-0+deb12u1", "26.7.0"); the "5.5.5-" MariaDB puts before
// its version in the handshake is skipped.
func ParseVersion(s string) Version {
	v := Version{MariaDB: strings.Contains(strings.ToLower(s), "mariadb")}
	if rest, ok := strings.CutPrefix(s, "5.5.5-"); ok && v.MariaDB {
		s = rest
	}
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 {
		return v
	}
	var err1, err2 error
	v.Major, err1 = strconv.Atoi(leadingDigitsOf(parts[0]))
	v.Minor, err2 = strconv.Atoi(leadingDigitsOf(parts[1]))
	if err1 != nil || err2 != nil {
		return Version{MariaDB: v.MariaDB}
	}
	if len(parts) == 3 {
		v.Patch, _ = strconv.Atoi(leadingDigitsOf(parts[2]))
	}
	v.Known = true
	return v
}

// AtLeast reports a known version at or after major.minor.patch.
func (v Version) AtLeast(major, minor, patch int) bool {
	if !v.Known {
		return false
	}
	if v.Major != major {
		return v.Major > major
	}
	if v.Minor != minor {
		return v.Minor > minor
	}
	return v.Patch >= patch
}

// ReplicaTerms are the statements that show, start and stop replication,
// in the spelling the server takes: MySQL 8.0.22 and MariaDB 10.5.1 added
// REPLICA, MySQL 8.4 removed SLAVE.
type ReplicaTerms struct{ Show, Start, Stop string }

// Replica is the server's spelling; an unknown version gets the old one,
// which every server before 8.4 takes.
func (v Version) Replica() ReplicaTerms {
	if v.MariaDB && v.AtLeast(10, 5, 1) || !v.MariaDB && v.AtLeast(8, 0, 22) {
		return ReplicaTerms{"SHOW REPLICA STATUS", "START REPLICA", "STOP REPLICA"}
	}
	return ReplicaTerms{"SHOW SLAVE STATUS", "START SLAVE", "STOP SLAVE"}
}

// BinaryLogStatus is the statement that shows the binary log position:
// MySQL 8.2 added SHOW BINARY LOG STATUS and 8.4 removed SHOW MASTER
// STATUS; MariaDB 10.5.2 added SHOW BINLOG STATUS.
func (v Version) BinaryLogStatus() string {
	switch {
	case v.MariaDB && v.AtLeast(10, 5, 2):
		return "SHOW BINLOG STATUS"
	case !v.MariaDB && v.AtLeast(8, 2, 0):
		return "SHOW BINARY LOG STATUS"
	}
	return "SHOW MASTER STATUS"
}

// HasQueryCache: MySQL removed the query cache in 8.0; MariaDB keeps it
// (off by default since 10.1.7). False when the version is unknown.
func (v Version) HasQueryCache() bool {
	return v.Known && (v.MariaDB || !v.AtLeast(8, 0, 0))
}

func leadingDigitsOf(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}
