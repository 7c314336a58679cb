package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// pt-online-schema-change finds each chunk's upper boundary with LIMIT n, 2
// (n = the chunk size, grown to tens of thousands of rows): routine work, not
// an application paging deep.
func TestDeepOffsetPaginationLeavesChunkBoundariesAlone(t *testing.T) {
	const boundary = "SELECT /*!40001 SQL_NO_CACHE */ `id` FROM `shop`.`items` FORCE INDEX(`PRIMARY`) WHERE ((`id` >= '1')) " +
		"ORDER BY `id` LIMIT 65954, 2 /*next chunk boundary*/"
	const boundaryDigest = "SELECT SQL_NO_CACHE `id` FROM `shop` . `items` FORCE INDEX ( `PRIMARY` ) WHERE ( ( `id` >= ? ) ) " +
		"ORDER BY `id` LIMIT ?, ..."
	copying := func(_ int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(575, 1, "Sending data", "INSERT LOW_PRIORITY IGNORE INTO "+
			"`shop`.`_items_new` (`id`) SELECT `id` FROM `shop`.`items` FORCE INDEX(`PRIMARY`) WHERE ((`id` >= '1')) "+
			"LOCK IN SHARE MODE /*pt-online-schema-change 1 copy nibble*/"))
	}
	d := digestOf(boundaryDigest, 3, 3*65_955, 3, 0, 0)
	runTimelines(t, IDDeepOffsetPagination, DefaultConfig(), []timelineCase{
		{"the boundary query in the processlist", series(6, procs(query(575, 0.3, "Sending data", boundary))), "......"},
		{"its digest while the schema change runs", series(3, copying, digests(d)), "..."},
		{"the same digest with no routine work in sight", series(3, digests(d)), "WWW"},
	})
	if s := classifyRoutineStatement(digestAsStatement(boundaryDigest)); s.tool != toolPercona || s.strength != markerLike {
		t.Errorf("the boundary digest reads as %+v", s)
	}
}
