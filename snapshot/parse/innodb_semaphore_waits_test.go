package parse

import (
	"os"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The wait array of a stuck 5.7 server, written for this test: two inserts
// wait 262 s and 241 s for an index latch a batch INSERT … SELECT holds.
func TestParseSemaphoreWaits(t *testing.T) {
	text, err := os.ReadFile("testdata/innodb-semaphores/mysql-5.7-written.txt")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseInnoDBStatus(string(text))
	if err != nil {
		t.Fatal(err)
	}
	m := s.Semaphores
	eq(t, "Waits", m.Waits, 5)
	eq(t, "LongestWaitSeconds", m.LongestWaitSeconds, 262.0)
	eq(t, "ReservationCount", m.ReservationCount, int64(7720415))
	eq(t, "SignalCount", m.SignalCount, int64(6512207))
	eq(t, "OSWaits", m.OSWaits, int64(3110286+288341+30117))
	want := []snapshot.InnoDBSemaphoreWait{
		{Thread: "139896711247616", File: "btr0cur.cc", Line: 3881, Seconds: 262, Kind: "SX-lock",
			Latch: "dict0dict.cc line 2737", Holder: "139896709326592", HolderMode: "SX",
			LastWriter: "btr0cur.cc line 3881"},
		{Thread: "139896710748928", File: "btr0cur.cc", Line: 3881, Seconds: 241, Kind: "SX-lock",
			Latch: "dict0dict.cc line 2737", Holder: "139896709326592", HolderMode: "SX",
			LastWriter: "btr0cur.cc line 3881"},
		{Thread: "139896711546624", File: "btr0cur.cc", Line: 1006, Seconds: 57, Kind: "S-lock",
			Latch: "dict0dict.cc line 2737", Holder: "139896709326592", HolderMode: "SX",
			LastWriter: "btr0cur.cc line 3881"},
		{Thread: "139896712144640", File: "trx0trx.cc", Line: 1723, Seconds: 3, Kind: "Mutex",
			Latch: "Mutex TRX_SYS created trx0sys.cc:556"},
		{Thread: "139896710150912", File: "row0sel.cc", Line: 4016, Seconds: 0, Kind: "S-lock",
			Latch: "&btr_search_latch", LastWriter: "btr0sea.cc line 1398"},
	}
	if len(m.WaitList) != len(want) {
		t.Fatalf("WaitList has %d entries, want %d: %+v", len(m.WaitList), len(want), m.WaitList)
	}
	for i := range want {
		eq(t, "WaitList", m.WaitList[i], want[i])
	}
	eq(t, "Site", m.WaitList[0].Site(), "btr0cur.cc:3881")
	tx := s.Transactions.Trx
	eq(t, "OSThread", tx[0].OSThread, "139896709326592")
	eq(t, "ThreadID", tx[0].ThreadID, int64(2207))
}

func TestParseSemaphoreWaitForms(t *testing.T) {
	for _, c := range []struct{ line, latch string }{
		{"Mutex at 0xf89ab0 '&kernel_mutex', lock var 1", "&kernel_mutex"},
		{"Mutex at 0x7f00 created file buf0buf.cc line 1234, lock var 1", "buf0buf.cc line 1234"},
		{"X-lock on RW-latch at 0x7f00 created in file /src/storage/innobase/ha/hash0hash.cc line 116", "hash0hash.cc line 116"},
		{"X-lock (wait_ex) on RW-latch at 0x7f00 '&block->lock'", "&block->lock"},
	} {
		var w snapshot.InnoDBSemaphoreWait
		waitDetail(&w, c.line)
		eq(t, c.line, w.Latch, c.latch)
	}
	w := parseSemaphoreWait("--Thread 1403 has waited at /src/storage/innobase/btr/btr0cur.c line 523 for 9.0000 seconds the semaphore:")
	eq(t, "old form", w, snapshot.InnoDBSemaphoreWait{Thread: "1403", File: "btr0cur.c", Line: 523, Seconds: 9})
	eq(t, "hex handle", osThreadHandle("MySQL thread id 4, OS thread handle 0x7f3ad0ef2700, query id 9"), "139890590164736")
}

// A list longer than the cap keeps counting.
func TestSemaphoreWaitListCap(t *testing.T) {
	var m snapshot.InnoDBSemaphores
	body := ""
	for range maxSemaphoreWaits + 10 {
		body += "--Thread 7 has waited at x.cc line 1 for 2.00 seconds the semaphore:\nMutex at 0x1 '&m', lock var 1\n"
	}
	parseSemaphores(&m, body)
	eq(t, "Waits", m.Waits, maxSemaphoreWaits+10)
	eq(t, "WaitList", len(m.WaitList), maxSemaphoreWaits)
}
