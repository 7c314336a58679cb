package importers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// Our own capture (2026-12-02, MariaDB 10.11.19, pt-stalk 3.2.1 from Debian):
// connection 4 ran BEGIN; UPDATE shop.acct ... WHERE id=1; UPDATE ... WHERE
// id=2 and stayed idle in its transaction; connections 5, 6, 7 and 8 then
// each ran UPDATE shop.acct ... WHERE id=1 a second apart and waited; about
// 20 s later `pt-stalk --no-stalk --run-time=10 --iterations=1` collected.
// Kept: lock-waits, transactions, processlist, innodbstatus1/2, variables,
// output, hostname, trigger, and mysqladmin cut to the counters the rules
// read.
const (
	ptLockDir    = "testdata/ptstalk-lockwaits"
	ptLockPrefix = "2026_12_02_03_04_31"
	ptLockHolder = int64(4)
)

var ptLockWaiters = []int64{5, 6, 7, 8}

func importPtLocks(t testing.TB, dir string) *Session {
	t.Helper()
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatPtStalk || len(c.Sessions) != 1 {
		t.Fatalf("format %s, %d sessions", c.Format, len(c.Sessions))
	}
	return &c.Sessions[0]
}

func withLocks(s *Session) []*snapshot.Snapshot {
	var out []*snapshot.Snapshot
	for _, sn := range s.Snapshots {
		if sn.Locks != nil {
			out = append(out, sn)
		}
	}
	return out
}

func childThreads(n *infer.LockNode) []int64 {
	var ids []int64
	for _, c := range n.Children {
		ids = append(ids, c.Thread)
	}
	slices.Sort(ids)
	return ids
}

func TestPtStalkLockWaitsTree(t *testing.T) {
	s := importPtLocks(t, ptLockDir)
	if s.Problems.Count != 0 {
		t.Fatalf("problems %+v", s.Problems)
	}
	locked := withLocks(s)
	// 9 one-second listings over the 10 s run, each placed by a waiter's
	// trx_wait_started plus its wait_time.
	if len(locked) < 8 {
		t.Fatalf("%d of %d snapshots have locks", len(locked), len(s.Snapshots))
	}
	for _, n := range s.Notes {
		if strings.Contains(n, "carry no clock") && strings.Contains(n, "lock-waits") {
			t.Errorf("lock-waits placed on the estimated clock although -transactions anchors them: %q", n)
		}
	}
	for _, sn := range locked {
		tree := infer.BuildLockTree(sn)
		if len(tree.Roots) != 1 || tree.Roots[0].Thread != ptLockHolder || tree.Waiting != len(ptLockWaiters) ||
			tree.Inferred {
			t.Fatalf("%s: roots %d waiting %d inferred %v", sn.Time.Format(time.TimeOnly), len(tree.Roots), tree.Waiting, tree.Inferred)
		}
		root := tree.Roots[0]
		if got := childThreads(root); !slices.Equal(got, ptLockWaiters) {
			t.Errorf("%s: holder's children %v, want %v", sn.Time.Format(time.TimeOnly), got, ptLockWaiters)
		}
		if !strings.Contains(tree.Sources[snapshot.LockRow], "INNODB_LOCK_WAITS") {
			t.Errorf("source %q", tree.Sources[snapshot.LockRow])
		}
		// The holder began at 03:04:09, the first waiter at 03:04:11.
		if root.Trx == nil || root.Trx.TrxAgeS < 20 || root.Trx.TrxAgeS > 40 || root.Trx.RowsLocked != 2 {
			t.Errorf("%s: holder trx %+v", sn.Time.Format(time.TimeOnly), root.Trx)
		}
		for _, c := range root.Children {
			if c.Wait.Object != "shop.acct PRIMARY" || c.Wait.Mode != "X" || c.Wait.WaitS < 15 ||
				c.Trx == nil || c.Trx.TrxState != "LOCK WAIT" {
				t.Errorf("%s: waiter %d wait %+v trx %+v", sn.Time.Format(time.TimeOnly), c.Thread, c.Wait, c.Trx)
			}
		}
	}
	// The first listing: waiter 5 had waited 23 s since 03:04:11.
	if first := locked[0]; !first.Time.Equal(time.Date(2026, 12, 2, 3, 4, 34, 0, time.UTC)) {
		t.Errorf("first listing at %s, want 03:04:34", first.Time.Format(time.TimeOnly))
	}
}

// copyCapture copies the capture's parts to a temporary directory, with
// lock-waits replaced by text.
func copyCapture(t *testing.T, lockWaits string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(ptLockDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(ptLockDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), "-lock-waits") {
			b = []byte(lockWaits)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPtStalkLockWaitsDamaged(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join(ptLockDir, ptLockPrefix+"-lock-waits"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(orig)
	// Cut the second sample's first wait row before its blocking side.
	first := strings.Index(text, "who_blocks: thread 4")
	second := strings.Index(text[first+1:], "who_blocks: thread 4") + first + 1
	p := strings.Index(text[second:], "waiting_table_lock") + second
	cut := p + strings.Index(text[p:], "\n") + 1
	tests := []struct {
		name, text, note string
		locked           bool
	}{
		{"truncated", text[:cut], "cut short or garbled were left out", true},
		{"garbled", "\x00\x01 binary junk\n" + text, "cut short or garbled were left out", true},
		{"nothing readable", "ERROR 1146 (42S02): Table 'information_schema.INNODB_LOCK_WAITS' doesn't exist\n",
			"no lock wait could be read", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := importPtLocks(t, copyCapture(t, tc.text))
			if s.Problems.Count == 0 || !strings.Contains(s.Problems.First[0], "lock-waits:") {
				t.Errorf("problems %+v", s.Problems)
			}
			if !slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, tc.note) }) {
				t.Errorf("no note %q in %q", tc.note, s.Notes)
			}
			if got := len(withLocks(s)) > 0; got != tc.locked {
				t.Errorf("locks present %v, want %v", got, tc.locked)
			}
		})
	}
}

// A MySQL 8 collection whose lock-waits comes from sys.innodb_lock_waits,
// written from the MySQL 8.0 manual's column list (no MySQL 8 server here),
// with the TS markers some pt-stalk versions write before each sample.
func TestPtStalkLockWaitsMySQL8Sys(t *testing.T) {
	dir := t.TempDir()
	const ts = "TS 1796180672.000000000 2026-12-02 03:04:32\n"
	procs := ts + `*************************** 1. row ***************************
     Id: 4
   User: app
   Host: 10.0.0.12:51234
     db: shop
Command: Sleep
   Time: 23
  State: 
   Info: NULL
*************************** 2. row ***************************
     Id: 5
   User: app
   Host: 10.0.0.13:40000
     db: shop
Command: Query
   Time: 21
  State: updating
   Info: UPDATE acct SET bal=bal+1 WHERE id=1
`
	waits := ts + `*************************** 1. row ***************************
                wait_started: 2026-12-02 03:04:11
                    wait_age: 00:00:21
               wait_age_secs: 21
                locked_table: ` + "`shop`.`acct`" + `
                locked_index: PRIMARY
                 locked_type: RECORD
              waiting_trx_id: 1555
             waiting_trx_age: 00:00:21
     waiting_trx_rows_locked: 1
                 waiting_pid: 5
               waiting_query: UPDATE acct SET bal=bal+1 WHERE id=1
             waiting_lock_id: 140211201964816:2:4:2:140211086465800
           waiting_lock_mode: X,REC_NOT_GAP
             blocking_trx_id: 1554
                blocking_pid: 4
              blocking_query: NULL
            blocking_trx_age: 00:00:23
    blocking_trx_rows_locked: 2
`
	for part, text := range map[string]string{"processlist": procs, "lock-waits": waits} {
		if err := os.WriteFile(filepath.Join(dir, "2026_12_02_03_04_31-"+part), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := importPtLocks(t, dir)
	locked := withLocks(s)
	if len(locked) != 1 || s.Problems.Count != 0 {
		t.Fatalf("%d snapshots with locks, problems %+v", len(locked), s.Problems)
	}
	tree := infer.BuildLockTree(locked[0])
	if len(tree.Roots) != 1 || tree.Roots[0].Thread != 4 || !slices.Equal(childThreads(tree.Roots[0]), []int64{5}) {
		t.Fatalf("tree %+v", tree.Roots)
	}
	root, w := tree.Roots[0], tree.Roots[0].Children[0]
	if root.Trx == nil || root.Trx.TrxAgeS != 23 || root.Trx.RowsLocked != 2 || !root.IdleInTrx() {
		t.Errorf("holder %+v proc %+v", root.Trx, root.Proc)
	}
	if w.Wait.Object != "shop.acct PRIMARY" || w.Wait.Mode != "X,REC_NOT_GAP" || w.Wait.WaitS != 21 {
		t.Errorf("wait %+v", w.Wait)
	}
	if src := tree.Sources[snapshot.LockRow]; !strings.HasPrefix(src, "sys.innodb_lock_waits") {
		t.Errorf("source %q", src)
	}
}

// A listing whose waiters -transactions never saw waiting (a wait shorter
// than its turn) and that has no TS stamp goes just after the listing
// before it, not where its index puts it on the status clock: no listing is
// lost under another, and they stay in order.
func TestPtStalkLockWaitsUnanchoredAfterThePrevious(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join(ptLockDir, ptLockPrefix+"-lock-waits"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(orig)
	starts := []int{}
	for i := 0; ; {
		j := strings.Index(text[i:], "who_blocks: thread 4")
		if j < 0 {
			break
		}
		starts = append(starts, i+j)
		i += j + 1
	}
	if len(starts) < 6 {
		t.Fatalf("%d listings in the fixture", len(starts))
	}
	// The fifth listing's waiters become transactions -transactions never saw.
	fifth := text[starts[4]:starts[5]]
	text = text[:starts[4]] + strings.ReplaceAll(fifth, "waiting_trx_id: ", "waiting_trx_id: 9") + text[starts[5]:]
	// Without -output's logged start the status clock starts at the
	// prefix's second, so a listing's index puts it on another's second.
	noStart := func(lockWaits string) string {
		dir := copyCapture(t, lockWaits)
		if err := os.Remove(filepath.Join(dir, ptLockPrefix+"-output")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	whole := listingSeconds(importPtLocks(t, noStart(string(orig))))
	s := importPtLocks(t, noStart(text))
	if got := listingSeconds(s); !slices.Equal(got, whole) {
		t.Errorf("listings at %v, want %v: the unanchored one just after the one before, none on another's second", got, whole)
	}
	if note := strings.Join(s.Notes, "\n"); !s.Approximate || !strings.Contains(note, "lock-waits") {
		t.Errorf("approximate %v, notes %q", s.Approximate, note)
	}
}

// listingSeconds are the seconds whose snapshot has a listing of its own
// (not one carried from a second before).
func listingSeconds(s *Session) []string {
	var out []string
	for _, sn := range s.Snapshots {
		if _, carried := sn.Collectors[snapshot.CollectorLocks]; sn.Locks != nil && !carried {
			out = append(out, sn.Time.Format(time.TimeOnly))
		}
	}
	return out
}
