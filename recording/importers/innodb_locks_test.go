package importers

import (
	"os"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// A saved InnoDB status of the AUTO-INC incident (MariaDB 10.11, two copies
// and 12 inserters under innodb_autoinc_lock_mode=0) imports with its lock
// waits: table-lock edges under the copy that holds the lock.
func TestInnoDBStatusCaptureHasLockEdges(t *testing.T) {
	c, err := Import("../../snapshot/parse/testdata/innodb-status/mariadb-10.11-autoinc-queue.txt",
		Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatInnoDBText || len(c.Sessions) != 1 || len(c.Sessions[0].Snapshots) != 1 {
		t.Fatalf("format %s, %d sessions", c.Format, len(c.Sessions))
	}
	s := c.Sessions[0].Snapshots[0]
	if st := s.Collectors[snapshot.CollectorLocks]; st.Unavailable != "" || st.Stale {
		t.Errorf("locks part %+v, want read from the status", st)
	}
	if s.Locks == nil || s.Locks.Sources[snapshot.LockTable] != "SHOW ENGINE INNODB STATUS (inferred)" {
		t.Fatalf("locks %+v", s.Locks)
	}
	tr := infer.BuildLockTree(s)
	if tr == nil || tr.Roots[0].Thread == 0 || tr.Roots[0].Kinds[snapshot.LockTable] < 12 {
		t.Fatalf("tree %+v, want one holder above the queue", tr)
	}
}

// A status stands for the lock part only in its own second (and the next):
// later seconds say it is too old, and a capture with a lock listing of its
// own keeps that.
func TestInnoDBLocksOnlyFromAFreshStatus(t *testing.T) {
	raw, err := os.ReadFile("../../snapshot/parse/testdata/innodb-status/mariadb-10.11-autoinc-queue.txt")
	if err != nil {
		t.Fatal(err)
	}
	st, err := parse.ParseInnoDBStatus(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	tl := newTimeline(time.UTC)
	for sec := int64(100); sec < 104; sec++ {
		tl.status[sec] = map[string]string{"Uptime": "5"}
	}
	tl.innodb[100] = st
	snaps, _ := tl.build()
	for i, s := range snaps {
		fresh := i < carrySeconds
		if got := s.Locks != nil; got != fresh {
			t.Errorf("second %d: locks %v, want %v", i, got, fresh)
		}
		if st := s.Collectors[snapshot.CollectorLocks]; st.Unavailable != "" || st.Stale == (i == 0) {
			t.Errorf("second %d: %+v", i, st)
		}
	}
	tl.locksRead = true
	snaps, _ = tl.build()
	if snaps[0].Locks != nil {
		t.Errorf("a capture with its own lock listing took the status's: %+v", snaps[0].Locks)
	}
}
