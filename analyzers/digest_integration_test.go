package analyzers

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Short statements no 1-s sample catches running: scanning UPDATEs of a few
// milliseconds and deep pages. The digests see them; a healthy mix of
// primary-key work and shallow pages on the same server stays quiet.

func digestTable(t *testing.T, srv *testdb.Server) {
	srv.Exec(t, "CREATE DATABASE shop", "CREATE DATABASE seq",
		"CREATE TABLE shop.t (id INT PRIMARY KEY, c INT NOT NULL, v INT NOT NULL DEFAULT 0, pad CHAR(40)) ENGINE=InnoDB",
		"INSERT INTO shop.t SELECT seq, seq % 1000, 0, REPEAT('x', 40) FROM seq.seq_1_to_30000",
		"ANALYZE TABLE shop.t")
}

func TestIntegrationDigestsProveShortScansAndDeepPages(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--performance-schema=ON")
	digestTable(t, srv)
	db := srv.DB(t)

	healthy := newWorkload(t)
	healthy.clients(db, 2, 20*time.Millisecond, func(r *rand.Rand) string {
		if r.IntN(2) == 0 {
			return "UPDATE shop.t SET v = v + 1 WHERE id = " + randomIDs(r, 1, 30000)
		}
		return "SELECT id, c FROM shop.t ORDER BY id LIMIT 20 OFFSET 40"
	})
	quiet := watch(t, srv, within(14*time.Second)).frames
	for _, f := range quiet {
		for _, id := range []string{IDFullScanUpdate, IDDeepOffsetPagination} {
			if got := findingIn(f, id); got != nil {
				t.Fatalf("healthy workload raised %s: %s\n%s", id, got.Title, strings.Join(got.Evidence, "\n"))
			}
		}
	}
	if last := quiet[len(quiet)-1].Snapshot.Statements; last == nil || len(last.Digests) == 0 {
		t.Fatalf("no digests read in the healthy run: %+v", last)
	}

	bad := newWorkload(t)
	bad.clients(db, 1, 100*time.Millisecond, func(r *rand.Rand) string {
		return "UPDATE shop.t SET v = v + 1 WHERE c = " + randomIDs(r, 1, 1000)
	})
	bad.clients(db, 1, 100*time.Millisecond, func(*rand.Rand) string {
		return "SELECT id, c, pad FROM shop.t ORDER BY id LIMIT 20 OFFSET 20000"
	})
	var scan, page *snapshot.Finding
	watch(t, srv, within(30*time.Second), until(func(f *snapshot.Frame) bool {
		scan, page = findingIn(f, IDFullScanUpdate), findingIn(f, IDDeepOffsetPagination)
		// On a loaded machine the processlist paths can raise both before the
		// first digest interval (5 s) ends; wait for the digests' own proof.
		return hasEvidence(scan, "digest ") && hasEvidence(page, "digest ")
	}))
	if scan == nil || page == nil {
		t.Fatalf("full_scan_update %v, deep_offset_pagination %v: want both from the digests", scan, page)
	}
	// A loaded machine slows each statement enough for samples to catch it
	// (the processlist paths speak first); either way the digests prove it.
	wantEvidence(t, scan, "UPDATE shop.t scans the whole table", "digest ", "no index used in",
		"UPDATE `shop` . `t` SET `v` = `v` + ? WHERE `c` =")
	wantEvidence(t, page, "digest ", "LIMIT ? OFFSET ?")
	t.Logf("%s\n%s\n%s\n%s", scan.Title, strings.Join(scan.Evidence, "\n"), page.Title, strings.Join(page.Evidence, "\n"))
}

// hasEvidence says f is raised and one of its evidence lines holds want.
func hasEvidence(f *snapshot.Finding, want string) bool {
	if f == nil {
		return false
	}
	for _, e := range f.Evidence {
		if strings.Contains(e, want) {
			return true
		}
	}
	return false
}
