package parse

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// fixtureWant holds figures read by hand from each fixture file.
type fixtureWant struct {
	time       string // monitor header, "2006-01-02 15:04:05"
	avgSecs    int
	truncated  bool
	bpSize     int64
	bpFree     int64
	bpModified int64
	pagesRead  int64
	hitRate    float64
	lsn        int64
	checkpoint int64
	queueShown bool
	inside     int64
	readViews  int64
	rowsRead   int64
	trxCounter int64
	history    int64
	trxCount   int
	trxActive  int
	oldestSecs int64
	lockWaits  int
	semWaits   int
	semLongest float64
	reserv     int64
	osReads    int64
	pendReads  int64
	pendFsyncs int64
	deadlockAt string
}

var fixtureWants = map[string]fixtureWant{
	"mariadb-10.11-autoinc-queue.txt": {time: "2026-12-06 07:39:21", avgSecs: 4, bpSize: 1014, bpFree: 863,
		bpModified: 140, pagesRead: 709, hitRate: 0.997, lsn: 15724621, checkpoint: 13444776, trxCounter: 41,
		history: 2, trxCount: 15, trxActive: 14, lockWaits: 13, osReads: 718},
	"mariadb-10.11-autoinc-queue-lock-lists.txt": {time: "2026-12-06 07:39:21", bpSize: 1014, bpFree: 858,
		bpModified: 144, pagesRead: 712, hitRate: 0.984, lsn: 15756675, checkpoint: 13444776, trxCounter: 41,
		history: 2, trxCount: 15, trxActive: 14, lockWaits: 13, osReads: 721, pendReads: 1},
	"mariadb-10.11-load-a.txt": {time: "2026-12-01 04:12:19", avgSecs: 1, bpSize: 379, bpFree: 131,
		pagesRead: 269382, hitRate: 0.597, lsn: 191837870, checkpoint: 191837854, readViews: 2,
		trxCounter: 51, trxCount: 2, trxActive: 2, osReads: 269391, pendReads: 2},
	"mariadb-10.11-load-b.txt": {time: "2026-12-01 04:12:28", avgSecs: 3, bpSize: 379, bpFree: 176,
		pagesRead: 288521, hitRate: -1, lsn: 191837870, checkpoint: 191837854, trxCounter: 52, osReads: 288530},
	"mariadb-10.11-lockwait-deadlock.txt": {time: "2026-12-01 04:58:28", avgSecs: 14, bpSize: 1014, bpFree: 839,
		bpModified: 26, pagesRead: 309, hitRate: 0.818, lsn: 49034, checkpoint: 44878, trxCounter: 29, history: 1,
		trxCount: 2, trxActive: 2, oldestSecs: 8, lockWaits: 1, osReads: 318, deadlockAt: "2026-12-01 04:58:26"},
	"mariadb-10.11-batch-escaped.txt": {time: "2026-12-01 04:58:31", avgSecs: 3, bpSize: 1014, bpFree: 839,
		bpModified: 26, pagesRead: 309, lsn: 49034, checkpoint: 44878, trxCounter: 29, history: 1,
		trxCount: 2, trxActive: 2, oldestSecs: 11, lockWaits: 1, osReads: 318, deadlockAt: "2026-12-01 04:58:26"},
	"mariadb-10.11-batch-raw.txt": {time: "2026-12-01 04:58:31", bpSize: 1014, bpFree: 839,
		bpModified: 26, pagesRead: 309, lsn: 49034, checkpoint: 44878, trxCounter: 29, history: 1,
		trxCount: 2, trxActive: 2, oldestSecs: 11, lockWaits: 1, osReads: 318, deadlockAt: "2026-12-01 04:58:26"},
	"mysql-5.5-a.txt": {time: "2010-09-04 10:24:51", avgSecs: 34, bpSize: 8191, bpFree: 8172, pagesRead: 17,
		hitRate: 1, lsn: 64909, checkpoint: 64909, queueShown: true, readViews: 1, rowsRead: 6,
		trxCounter: 908, history: 11, trxCount: 2, trxActive: 1, oldestSecs: 35, reserv: 4, osReads: 28},
	"mysql-5.5-b.txt": {time: "2012-09-06 17:23:04", avgSecs: 9, bpSize: 786431, bpFree: 1, bpModified: 63647,
		pagesRead: 95985174, hitRate: 1, lsn: 39213820967021, checkpoint: 39212863356560, queueShown: true,
		readViews: 2, rowsRead: 112046481021, trxCounter: 0xB0055592, history: 2496, trxCount: 17, trxActive: 2,
		oldestSecs: 354, reserv: 56103364, osReads: 95996891, deadlockAt: "2012-09-06 06:03:32"},
	"mysql-5.6.12.txt": {time: "2013-06-19 13:47:37", avgSecs: 33, bpSize: 8191, bpFree: 8002, pagesRead: 188,
		hitRate: 0.895, lsn: 1666626, checkpoint: 1666626, queueShown: true, rowsRead: 1, trxCounter: 2822,
		history: 18, trxCount: 1, reserv: 5, osReads: 330},
	"mysql-5.7.7.txt": {time: "2015-06-09 13:52:05", avgSecs: 27, bpSize: 8191, pagesRead: 9733136338, hitRate: 1,
		lsn: 2055430492, checkpoint: 2055430492, queueShown: true, rowsRead: 14288311800, trxCounter: 849068,
		history: 2401, trxCount: 1, reserv: 242326408, osReads: 9733128594},
	"mysql-8.0.12.txt": {time: "2018-10-12 19:11:10", avgSecs: 16, bpSize: 8192, bpFree: 7040, bpModified: 315,
		pagesRead: 983, hitRate: 1, lsn: 23102842, checkpoint: 22702156, queueShown: true, rowsRead: 413711,
		trxCounter: 8886, history: 16, trxCount: 4, trxActive: 1, reserv: 3, osReads: 1006},
	"mysql-8.1.0.txt": {time: "2023-08-21 22:25:51", avgSecs: 18, bpSize: 4096, bpFree: 2850, bpModified: 755,
		pagesRead: 825, hitRate: 1, lsn: 20847697, checkpoint: 19699957, queueShown: true, readViews: 9,
		rowsRead: 615084, trxCounter: 5163, history: 109, trxCount: 5, trxActive: 1, semWaits: 9, reserv: 8133,
		osReads: 849},
	"mysql-9.2.0.txt": {time: "2025-04-08 18:54:46", bpSize: 4096, bpFree: 2836, bpModified: 651, pagesRead: 845,
		hitRate: 1, lsn: 21228847, checkpoint: 20024923, queueShown: true, readViews: 1, rowsRead: 1262095,
		trxCounter: 6175, history: 297, trxCount: 4, reserv: 23, osReads: 866},
	"percona-sample-001.txt": {time: "2010-03-18 17:35:58", avgSecs: 9, bpSize: 5505023, bpModified: 2221,
		pagesRead: 49717874, hitRate: 1, lsn: 6558240284218, checkpoint: 6558239649930, queueShown: true,
		readViews: 23, rowsRead: 410934459732, trxCounter: 0xFC593C7D1, history: 255, trxCount: 1, trxActive: 1,
		oldestSecs: 3, semWaits: 164, semLongest: 13, reserv: 12433146, osReads: 44694496, pendReads: 6 + 23,
		pendFsyncs: 1},
	"percona-sample-002.txt": {time: "2010-03-20 15:46:24", avgSecs: 19, truncated: true, bpSize: 5242880,
		bpFree: 1759475, bpModified: 70261, pagesRead: 2352002, hitRate: 1, lsn: 897148773600,
		checkpoint: 896783925619, queueShown: true, readViews: 583, rowsRead: 38634161513, trxCounter: 0x7C6E3DD1,
		history: 426, trxCount: 71, trxActive: 71, oldestSecs: 4, semWaits: 50, reserv: 20669512, osReads: 2352019},
	"percona-sample-003.txt": {time: "2010-09-04 10:24:51", avgSecs: 34, bpSize: 8191, bpFree: 8172, pagesRead: 17,
		hitRate: 1, lsn: 64909, checkpoint: 64909, queueShown: true, readViews: 1, rowsRead: 6,
		trxCounter: 908, history: 11, trxCount: 2, trxActive: 1, oldestSecs: 35, reserv: 4, osReads: 28},
	"percona-sample-004.txt": {time: "2010-08-31 08:56:28", avgSecs: 1, bpSize: 2097152, bpFree: 1,
		bpModified: 94787, pagesRead: 27173542, hitRate: 0.999, lsn: 208<<32 + 1379356250,
		checkpoint: 208<<32 + 1281659055, queueShown: true, inside: 9, readViews: 10, rowsRead: 62131178506,
		trxCounter: 94997420, history: 1282, trxCount: 66, trxActive: 9, oldestSecs: 263, semWaits: 8,
		reserv: 2465097785, osReads: 11650986, pendReads: 48 + 2},
	"percona-sample-2018-a.txt": {time: "2018-03-05 13:24:56", avgSecs: 4, bpSize: 1441791, bpModified: 578,
		pagesRead: 69635295, hitRate: 1, lsn: 22611157035212, checkpoint: 22611148135290, queueShown: true,
		readViews: 1, rowsRead: 2455335965266, trxCounter: 0x55D015695, history: 5198, trxCount: 12,
		reserv: 36440343, osReads: 69640821, deadlockAt: "2018-02-27 14:45:46"},
}

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "innodb-status", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseInnoDBStatusCoversEveryFixture(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "innodb-status", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		if _, ok := fixtureWants[filepath.Base(f)]; !ok {
			t.Errorf("fixture %s has no expected values", filepath.Base(f))
		}
	}
}

func TestParseInnoDBStatusFixtures(t *testing.T) {
	for name, w := range fixtureWants {
		t.Run(name, func(t *testing.T) {
			text := readFixture(t, name)
			s, err := ParseInnoDBStatus(text)
			if err != nil {
				t.Fatal(err)
			}
			if s.Raw != text {
				t.Error("Raw is not the input text")
			}
			checkHeader(t, s, w)
			checkBufferPoolAndLog(t, s, w)
			checkRowsAndTxn(t, s, w)
			checkSemaphoresAndIO(t, s, w)
		})
	}
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func wantTime(t *testing.T, s string) time.Time {
	t.Helper()
	if s == "" {
		return time.Time{}
	}
	v, err := time.Parse("2006-01-02 15:04:05", s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func checkHeader(t *testing.T, s *snapshot.InnoDBStatus, w fixtureWant) {
	t.Helper()
	eq(t, "Time", s.Time, wantTime(t, w.time))
	if w.avgSecs != 0 {
		eq(t, "AveragesSeconds", s.AveragesSeconds, w.avgSecs)
	}
	eq(t, "Truncated", s.Truncated, w.truncated)
	eq(t, "LatestDeadlockTime", s.LatestDeadlockTime, wantTime(t, w.deadlockAt))
	eq(t, "deadlock text present", s.LatestDeadlock != "", w.deadlockAt != "")
}

func checkBufferPoolAndLog(t *testing.T, s *snapshot.InnoDBStatus, w fixtureWant) {
	t.Helper()
	bp := s.BufferPool
	eq(t, "BufferPool.Present", bp.Present, true)
	eq(t, "SizePages", bp.SizePages, w.bpSize)
	eq(t, "FreePages", bp.FreePages, w.bpFree)
	eq(t, "ModifiedPages", bp.ModifiedPages, w.bpModified)
	eq(t, "PagesRead", bp.PagesRead, w.pagesRead)
	if w.hitRate != 0 {
		eq(t, "HitRate", bp.HitRate, w.hitRate)
		eq(t, "HitRateShown", bp.HitRateShown, w.hitRate > 0)
	}
	eq(t, "Log.Present", s.Log.Present, true)
	eq(t, "SequenceNumber", s.Log.SequenceNumber, w.lsn)
	eq(t, "LastCheckpoint", s.Log.LastCheckpoint, w.checkpoint)
	eq(t, "CheckpointAge", s.Log.CheckpointAge, w.lsn-w.checkpoint)
}

func checkRowsAndTxn(t *testing.T, s *snapshot.InnoDBStatus, w fixtureWant) {
	t.Helper()
	eq(t, "QueueShown", s.Rows.QueueShown, w.queueShown)
	eq(t, "QueriesInside", s.Rows.QueriesInside, w.inside)
	eq(t, "ReadViewsOpen", s.Rows.ReadViewsOpen, w.readViews)
	eq(t, "Rows.Read", s.Rows.Read, w.rowsRead)
	tx := s.Transactions
	eq(t, "TrxIDCounter", tx.TrxIDCounter, w.trxCounter)
	eq(t, "HistoryListLength", tx.HistoryListLength, w.history)
	eq(t, "Count", tx.Count, w.trxCount)
	eq(t, "Active", tx.Active, w.trxActive)
	eq(t, "OldestActiveSeconds", tx.OldestActiveSeconds, w.oldestSecs)
	eq(t, "LockWaits", tx.LockWaits, w.lockWaits)
}

func checkSemaphoresAndIO(t *testing.T, s *snapshot.InnoDBStatus, w fixtureWant) {
	t.Helper()
	eq(t, "Semaphores.Waits", s.Semaphores.Waits, w.semWaits)
	eq(t, "LongestWaitSeconds", s.Semaphores.LongestWaitSeconds, w.semLongest)
	eq(t, "ReservationCount", s.Semaphores.ReservationCount, w.reserv)
	eq(t, "OSFileReads", s.FileIO.OSFileReads, w.osReads)
	eq(t, "FileIO.PendingReads", s.FileIO.PendingReads, w.pendReads)
	eq(t, "PendingFsyncs", s.FileIO.PendingFsyncs, w.pendFsyncs)
}
