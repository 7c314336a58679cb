package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestOpenFilesNearLimit(t *testing.T) {
	files := func(open, innodb, limit string) edit {
		return func(i int, s *snapshot.Snapshot) {
			status("Open_files", open, "Innodb_num_open_files", innodb)(i, s)
			vars("open_files_limit", limit)(i, s)
		}
	}
	runTimelines(t, IDOpenFilesNearLimit, DefaultConfig(), []timelineCase{
		{"80 % of the limit", series(3, files("820", "20", "1024")), "WWW"},
		{"InnoDB's files at 90 %", series(2, files("10", "922", "1024")), "CC"},
		{"half the limit", series(3, files("512", "40", "1024")), "..."},
		{"no limit reported", series(2, status("Open_files", "10")), "NN"},
		{"not reported", series(2), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(2, files("900", "20", "1000"),
		vars("table_open_cache", "2000"), status("Open_tables", "450")), IDOpenFilesNearLimit)
	mustContain(t, f, "Open_files 900 of open_files_limit 1000 (90 %)", "Open_tables 450 of table_open_cache 2000",
		"Raise open_files_limit (to 2000")
}
