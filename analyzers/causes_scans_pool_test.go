package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// full_scan_storm causes a standing buffer_pool_miss only when the scans
// read most of the rows InnoDB read: a pool missing on point lookups beside
// a few scans is not the storm's doing.
func TestCauseScanStormBehindPoolMisses(t *testing.T) {
	c := DefaultConfig()
	for _, tc := range []struct {
		name          string
		scanned, read int    // rows a second
		counter       string // MariaDB's Rows_read, MySQL's Innodb_rows_read
		linked        bool
	}{
		{"scans read nearly every row", 190000, 200000, "Rows_read", true},
		{"scans read half (MySQL)", 100000, 200000, "Innodb_rows_read", true},
		{"lookups read most rows", 20000, 200000, "Rows_read", false},
		{"nothing read", 0, 0, "Rows_read", false},
	} {
		snaps := series(2, func(i int, s *snapshot.Snapshot) {
			s.Status["Handler_read_rnd_next"] = fmt.Sprint(i * tc.scanned)
			s.Status[tc.counter] = fmt.Sprint(i * tc.read)
		})
		w := newWindow(frames(snaps), nil, &c)
		if got := scansReadThePool(w, nil, nil); got != tc.linked {
			t.Errorf("%s: linked %v, want %v", tc.name, got, tc.linked)
		}
	}
}
