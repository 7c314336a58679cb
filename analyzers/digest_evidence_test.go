package analyzers

import (
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// digests gives every snapshot a 5-s digest sample read at snapshot 0 and
// carried, as the live collector does, holding ds.
func digests(ds ...snapshot.Digest) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.Statements = &snapshot.Statements{At: t0, Interval: 5, Changed: len(ds), Digests: ds}
	}
}

// Digests of 5 s: calls, rows examined, rows sent, rows changed, calls with no index.
func digestOf(text string, calls, examined, sent, affected, noIndex int64) snapshot.Digest {
	h := fnv.New64a()
	h.Write([]byte(text))
	return snapshot.Digest{Digest: fmt.Sprintf("%016x", h.Sum64()), Schema: "shop", Text: text, Calls: calls, LatencyS: 0.001 * float64(calls),
		RowsExamined: examined, RowsSent: sent, RowsAffected: affected, NoIndexUsed: noIndex}
}

const (
	scanUpdateDigest = "UPDATE `shop` . `b` SET `flag` = ? WHERE `c` = ?"
	pkUpdateDigest   = "UPDATE `shop` . `b` SET `flag` = ? WHERE `id` = ?"
	deepPageDigest   = "SELECT * FROM `items` ORDER BY `id` LIMIT ? OFFSET ?"
	shallowDigest    = "SELECT * FROM `items` ORDER BY `id` LIMIT ?"
)

func TestFullScanUpdateFromDigests(t *testing.T) {
	runTimelines(t, IDFullScanUpdate, DefaultConfig(), []timelineCase{
		// 100 short UPDATEs in 5 s, each reading 50,000 rows to change 1: no sample sees one running.
		{"short scanning UPDATEs", series(3, digests(digestOf(scanUpdateDigest, 100, 5_000_000, 0, 100, 100))), "WWW"},
		{"critical while others wait on locks", series(2, digests(digestOf(scanUpdateDigest, 100, 5_000_000, 0, 100, 100)),
			procs(query(9, 2, "Waiting for table level lock", "SELECT * FROM b WHERE id = 1"))), "CC"},
		{"healthy: primary-key updates", series(3, digests(digestOf(pkUpdateDigest, 5000, 5000, 0, 5000, 0))), "..."},
		{"no index but a small table", series(3, digests(digestOf(scanUpdateDigest, 100, 20_000, 0, 100, 100))), "..."},
		{"no index but it changes most of what it reads", series(3, digests(digestOf(scanUpdateDigest, 10, 50_000, 0, 40_000, 10))), "..."},
		{"a full-scan SELECT is not an UPDATE", series(3, digests(digestOf("SELECT * FROM `b` WHERE `c` = ?", 100, 5_000_000, 100, 0, 100))), "..."},
		{"no digests", series(3), "..."},
	})
	snaps := series(2, digests(digestOf(scanUpdateDigest, 100, 5_000_000, 0, 100, 100)))
	f := lastFinding(t, DefaultConfig(), snaps, IDFullScanUpdate)
	mustContain(t, f, "UPDATE shop.b scans the whole table 20 times/s, 50,000 rows examined each (digests)",
		"digest ", "1,000,000 rows examined/s changing 20/s", "no index used in 20 calls/s",
		"an index on shop.b(c)")
}

func TestDeepOffsetPaginationFromDigests(t *testing.T) {
	runTimelines(t, IDDeepOffsetPagination, DefaultConfig(), []timelineCase{
		// 50 pages in 5 s, each reading 60,020 rows to send 20 (the clustered-index write-up).
		{"deep pages only digests see", series(3, digests(digestOf(deepPageDigest, 50, 50*60_020, 50*20, 0, 0))), "WWW"},
		{"healthy: shallow pages", series(3, digests(digestOf(deepPageDigest, 500, 500*40, 500*20, 0, 0))), "..."},
		{"healthy: LIMIT without OFFSET", series(3, digests(digestOf(shallowDigest, 50, 50*60_020, 50*20, 0, 0))), "..."},
	})
	snaps := series(2, digests(digestOf(deepPageDigest, 50, 50*60_020, 50*20, 0, 0)))
	f := lastFinding(t, DefaultConfig(), snaps, IDDeepOffsetPagination)
	mustContain(t, f, "reading 60,020 rows a call to send 20 (digests)", "LIMIT ? OFFSET ?")
}

func TestTmpDiskTablesAndSortMergesNameTheirStatements(t *testing.T) {
	spill := digestOf("SELECT `a` , COUNT ( * ) FROM `t` GROUP BY `a`", 20, 2000, 200, 0, 20)
	spill.TmpDiskTables = 20
	sorter := digestOf("SELECT * FROM `t` ORDER BY `b`", 10, 1000, 1000, 0, 10)
	sorter.SortMergePasses = 60
	snaps := series(5, counters(map[string]float64{tmpTables: 60, tmpDisk: 14}), digests(spill, sorter))
	f := lastFinding(t, spillConfig(), snaps, IDTmpDiskTables)
	mustContain(t, f, "caused by (digests, last 5 s): 4.0 disk temporary tables/s from 4.0 calls/s of SELECT `a` , COUNT ( * ) FROM `t` GROUP BY `a`",
		"Index the GROUP BY/ORDER BY columns of SELECT `a` , COUNT ( * ) FROM `t` GROUP BY `a` (4.0 disk temporary tables/s)")
	for _, ev := range f.Evidence {
		if strings.Contains(ev, "ORDER BY `b`") {
			t.Errorf("a statement that made no disk table is named: %s", ev)
		}
	}
	snaps = series(5, counters(map[string]float64{sortMerge: 12, "Sort_scan": 20, "Sort_range": 0}), digests(spill, sorter))
	f = lastFinding(t, spillConfig(), snaps, IDSortMergePasses)
	mustContain(t, f, "12 merge passes/s from 2.0 calls/s of SELECT * FROM `t` ORDER BY `b`",
		"Let SELECT * FROM `t` ORDER BY `b` (12 merge passes/s) read rows in order from an index on its ORDER BY columns")
}

func TestProcesslistFindingsCarryTheirDigestProof(t *testing.T) {
	big := plan(scanSQL, "ALL", "", 2100000, 2100000)
	d := digestOf("UPDATE `b` SET `flag` = ? WHERE `c` = ?", 10, 21_000_000, 0, 10, 10)
	f := lastFinding(t, DefaultConfig(), series(2, big, scanning(5121, 10, scanSQL, 0), digests(d)), IDFullScanUpdate)
	mustContain(t, f, "thread 5121", "4,200,000 rows examined/s changing 2.0/s, 1 ms each, no index used in 2.0 calls/s")
}
