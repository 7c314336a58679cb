package snapshot

import "testing"

// The versions in the wild, MySQL's calendar ones after 9.x, and what each
// takes.
func TestVersionsInTheWild(t *testing.T) {
	cases := []struct {
		version          string
		major, minor     int
		mariadb          bool
		replica, binlog  string
		queryCache, at84 bool
	}{
		{"5.7.44-log", 5, 7, false, "SHOW SLAVE STATUS", "SHOW MASTER STATUS", true, false},
		{"8.0.21", 8, 0, false, "SHOW SLAVE STATUS", "SHOW MASTER STATUS", false, false},
		{"8.0.36-28", 8, 0, false, "SHOW REPLICA STATUS", "SHOW MASTER STATUS", false, false},
		{"8.4.3", 8, 4, false, "SHOW REPLICA STATUS", "SHOW BINARY LOG STATUS", false, true},
		{"9.7.0", 9, 7, false, "SHOW REPLICA STATUS", "SHOW BINARY LOG STATUS", false, true},
		{"26.7.0", 26, 7, false, "SHOW REPLICA STATUS", "SHOW BINARY LOG STATUS", false, true},
		{"26.10.1-commercial", 26, 10, false, "SHOW REPLICA STATUS", "SHOW BINARY LOG STATUS", false, true},
		{"10.6.21-MariaDB-log", 10, 6, true, "SHOW REPLICA STATUS", "SHOW BINLOG STATUS", true, true},
		{"10.11.19-MariaDB-0+deb12u1", 10, 11, true, "SHOW REPLICA STATUS", "SHOW BINLOG STATUS", true, true},
		{"11.4.5-MariaDB", 11, 4, true, "SHOW REPLICA STATUS", "SHOW BINLOG STATUS", true, true},
		{"11.8.2-MariaDB-ubu2404", 11, 8, true, "SHOW REPLICA STATUS", "SHOW BINLOG STATUS", true, true},
		{"12.0.2-MariaDB", 12, 0, true, "SHOW REPLICA STATUS", "SHOW BINLOG STATUS", true, true},
		{"5.5.5-10.11.6-MariaDB", 10, 11, true, "SHOW REPLICA STATUS", "SHOW BINLOG STATUS", true, true},
		{"10.4.34-MariaDB", 10, 4, true, "SHOW SLAVE STATUS", "SHOW MASTER STATUS", true, true},
	}
	for _, c := range cases {
		v := ParseVersion(c.version)
		if !v.Known || v.Major != c.major || v.Minor != c.minor || v.MariaDB != c.mariadb {
			t.Errorf("%s: parsed %+v", c.version, v)
			continue
		}
		if got := v.Replica().Show; got != c.replica {
			t.Errorf("%s: %s, want %s", c.version, got, c.replica)
		}
		if got := v.BinaryLogStatus(); got != c.binlog {
			t.Errorf("%s: %s, want %s", c.version, got, c.binlog)
		}
		if v.HasQueryCache() != c.queryCache {
			t.Errorf("%s: query cache %v", c.version, v.HasQueryCache())
		}
		if v.AtLeast(8, 4, 0) != c.at84 {
			t.Errorf("%s: at least 8.4 = %v", c.version, v.AtLeast(8, 4, 0))
		}
	}
	// The calendar versions come after every 9.x, and 26.10 after 26.7.
	if !ParseVersion("26.7.0").AtLeast(9, 7, 99) || !ParseVersion("26.10.0").AtLeast(26, 7, 5) || ParseVersion("26.7.9").AtLeast(26, 10, 0) {
		t.Error("calendar versions out of order")
	}
	for _, bad := range []string{"", "MariaDB", "x.y"} {
		if v := ParseVersion(bad); v.Known || v.AtLeast(0, 0, 0) || v.HasQueryCache() {
			t.Errorf("%q: %+v", bad, v)
		}
	}
}
