package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestSemisyncFallback(t *testing.T) {
	source := vars("rpl_semi_sync_master_enabled", "ON", "rpl_semi_sync_master_timeout", "10000")
	state := func(on string) edit {
		return status("Rpl_semi_sync_master_status", on, "Rpl_semi_sync_master_clients", "0")
	}
	runTimelines(t, IDSemisyncFallback, DefaultConfig(), []timelineCase{
		{"fell back", series(3, source, state("OFF"), counter("Rpl_semi_sync_master_no_tx", 10, 40)), "WWW"},
		{"semi-sync working", series(3, source, state("ON"), counter("Rpl_semi_sync_master_yes_tx", 10, 40),
			counter("Rpl_semi_sync_master_no_tx", 10, 0)), "..."},
		{"a commit not acknowledged while ON", series(3, source, state("ON"),
			counter("Rpl_semi_sync_master_no_tx", 10, 1)), ".WW"},
		{"disabled", series(2, state("OFF"), vars("rpl_semi_sync_master_enabled", "OFF")), ".."},
		{"a read-only standby", series(2, source, state("OFF"), vars("read_only", "ON")), "ii"},
		{"MySQL 8.0.26+ names", series(2, vars("rpl_semi_sync_source_enabled", "ON"),
			status("Rpl_semi_sync_source_status", "OFF")), "WW"},
		{"no semi-sync", series(2), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(3, source, state("OFF"), counter("Rpl_semi_sync_master_no_tx", 10, 40),
		procs(snapshot.Process{ID: 12, User: "repl", Host: "10.0.0.7:4410", Command: "Binlog Dump GTID",
			State: "Master has sent all binlog to slave; waiting for more updates"})), IDSemisyncFallback)
	mustContain(t, f, "fell back to asynchronous: 40 commits/s", "Rpl_semi_sync_master_status=OFF",
		"Rpl_semi_sync_master_clients 0", "rpl_semi_sync_master_timeout=10000 ms", "replica connected: thread 12 repl@10.0.0.7")
}
