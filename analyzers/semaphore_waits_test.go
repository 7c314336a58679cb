package analyzers

import (
	"os"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// writtenSemaphores is the SEMAPHORES sample written for the snapshot tests:
// a 5.7 server whose inserts wait up to 262 s for an index latch.
func writtenSemaphores(t *testing.T) edit {
	t.Helper()
	b, err := os.ReadFile("../snapshot/parse/testdata/innodb-semaphores/mysql-5.7-written.txt")
	if err != nil {
		t.Fatal(err)
	}
	in, err := parse.ParseInnoDBStatus(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return func(_ int, s *snapshot.Snapshot) {
		s.InnoDB = in
		s.Server = snapshot.ServerInfo{Version: "5.7.44-log", Flavor: snapshot.FlavorMySQL}
		s.Variables["version"] = "5.7.44-log"
		s.Variables["innodb_fatal_semaphore_wait_threshold"] = "600"
	}
}

// semaphoreWaits is a wait array with waits of the given seconds.
func semaphoreWaits(secs ...float64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.Server = snapshot.ServerInfo{Version: "5.7.44", Flavor: snapshot.FlavorMySQL}
		m := snapshot.InnoDBSemaphores{Present: true}
		for _, v := range secs {
			m.Waits++
			m.LongestWaitSeconds = max(m.LongestWaitSeconds, v)
			m.WaitList = append(m.WaitList, snapshot.InnoDBSemaphoreWait{Thread: "77", File: "btr0sea.cc", Line: 1100,
				Seconds: v, Kind: "S-lock", Latch: "&btr_search_latch"})
		}
		s.InnoDB = &snapshot.InnoDBStatus{Semaphores: m}
	}
}

func TestSemaphoreWaits(t *testing.T) {
	mariadb1011Empty := func(_ int, s *snapshot.Snapshot) {
		s.InnoDB = &snapshot.InnoDBStatus{Semaphores: snapshot.InnoDBSemaphores{Present: true}}
	}
	runTimelines(t, IDSemaphoreWaits, DefaultConfig(), []timelineCase{
		{"a 12 s wait warns at once", series(3, semaphoreWaits(12, 0)), "WWW"},
		// The routine-work review: short latch waits are routine under load.
		{"waits of a few seconds under load are routine", series(4, semaphoreWaits(5, 3, 1, 2, 0)), "...."},
		{"from 240 s it is critical", series(2, semaphoreWaits(12, 241)), "CC"},
		{"waits caught mid-spin are quiet", series(4, semaphoreWaits(0, 0, 0.5)), "...."},
		{"an empty wait array is quiet", series(3, semaphoreWaits()), "..."},
		{"clears after 3 clean reads", series(8, during(0, 3, semaphoreWaits(30)), during(3, 8, semaphoreWaits(0))), "WWWWW..."},
		{"MariaDB 10.6+ has no wait array", series(2, mariadb1011Empty), "NN"},
		{"no InnoDB status in this source", series(2), "NN"},
	})
}

func TestSemaphoreWaitsOnWrittenSample(t *testing.T) {
	f := lastFinding(t, DefaultConfig(), series(2, writtenSemaphores(t)), IDSemaphoreWaits)
	if f.Severity != snapshot.Critical {
		t.Errorf("severity %s: a wait is past InnoDB's 240 s limit", f.Severity)
	}
	mustContain(t, f,
		"3 threads wait on InnoDB latches, longest 262 s; hottest: 2 at btr0cur.cc:3881 on SX-lock dict0dict.cc line 2737 (data dictionary / index tree latch)",
		"5 waits in the SEMAPHORES wait array, 3 of them 10 s or longer; longest 262 s",
		"2 waiting at btr0cur.cc:3881 for SX-lock dict0dict.cc line 2737 (data dictionary / index tree latch), longest 262 s; held by thread 139896709326592 in mode SX = connection 2207, trx ACTIVE 263 s: insert into ledger.entry",
		"thread 139896711247616 waits 262 s at btr0cur.cc:3881 (connection 2311: insert into ledger.entry",
		"innodb_fatal_semaphore_wait_threshold=600: the server aborts itself if a wait reaches it (338 s left for the longest)",
		"spread or batch the writes")
	want := map[int64]bool{2311: true, 2314: true, 2207: true}
	for _, id := range f.Threads {
		delete(want, id)
	}
	if len(want) != 0 {
		t.Errorf("threads %v: missing %v", f.Threads, want)
	}
}
