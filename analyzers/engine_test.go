package analyzers

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// fakeRule raises with the severity named by the snapshot's "Fake" status
// ("W", "C", "N" for not applicable, anything else quiet).
func fakeRule(id string) rule {
	return rule{id: id, check: func(w *window, _ *Config) verdict {
		switch w.snap.Status["Fake_"+id] {
		case "W":
			return raise(snapshot.Warning, id+" warn", nil, "", nil)
		case "C":
			return raise(snapshot.Critical, id+" crit", nil, "", nil)
		case "N":
			return notApplicable("fake says no")
		}
		return quiet()
	}}
}

// signal sets rule id's fake signal from a pattern, one character per snapshot.
func signal(id, pattern string) edit {
	return func(i int, s *snapshot.Snapshot) {
		if i < len(pattern) {
			s.Status["Fake_"+id] = string(pattern[i])
		}
	}
}

func fakeTimeline(cfg Config, snaps []*snapshot.Snapshot, id string, rules ...rule) string {
	e := newEngineWith(cfg, rules)
	fs := frames(snaps)
	var b strings.Builder
	for i := range fs {
		findings, na := e.Evaluate(fs[:i+1])
		b.WriteByte(mark(findings, na, id))
	}
	return b.String()
}

func TestEnginePersistence(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DefaultPersistence = persistFor(3*time.Second, 2*time.Second)
	cases := []struct{ name, signal, want string }{
		{"onset after 3 frames", "..WWWWW", "....WWW"},
		{"short burst never raises", ".WW.WW.WW.", ".........."},
		{"clears after 2 quiet frames", "WWWW....", "..WWW..."},
		{"one quiet frame does not clear", "WWWW.WW.W...", "..WWWWWWWW.."},
		{"flapping at the threshold stays up", "WWW.W.W.W.W..", "..WWWWWWWWWW."},
		{"severity follows the signal", "WWWCCC", "..WCCC"},
		{"gap keeps the last severity", "WWWC.....", "..WCC...."},
		{"not applicable resets", "WWWNWW", "..WN.."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			snaps := series(len(c.signal), signal("f", c.signal))
			if got := fakeTimeline(cfg, snaps, "f", fakeRule("f")); got != c.want {
				t.Errorf("signal %s\n   got %s\n  want %s", c.signal, got, c.want)
			}
		})
	}
}

func TestEngineSinceIsOnsetOfTheRun(t *testing.T) {
	snaps := series(10, signal("f", ".W.WWWWW.W"))
	e := newEngineWith(DefaultConfig(), []rule{fakeRule("f")})
	fs := frames(snaps)
	var got []snapshot.Finding
	for i := range fs {
		got, _ = e.Evaluate(fs[:i+1])
	}
	if len(got) != 1 || !got[0].Since.Equal(t0.Add(3*time.Second)) {
		t.Fatalf("findings %v, want one since %v", got, t0.Add(3*time.Second))
	}
	if got[0].ID != "f" || got[0].Title != "f warn" {
		t.Errorf("finding %+v", got[0])
	}
}

func TestEngineSortsBySeverityThenOnset(t *testing.T) {
	snaps := series(8, signal("a", "..WWWWWW"), signal("b", "WWWWWWWW"), signal("c", "....CCCC"))
	e := newEngineWith(DefaultConfig(), []rule{fakeRule("a"), fakeRule("b"), fakeRule("c")})
	fs := frames(snaps)
	var got []snapshot.Finding
	for i := range fs {
		got, _ = e.Evaluate(fs[:i+1])
	}
	var order []string
	for _, f := range got {
		order = append(order, f.ID)
	}
	if strings.Join(order, ",") != "c,b,a" {
		t.Errorf("order %v, want c,b,a", order)
	}
}

func TestEngineSeekRebuildsStateFromWindow(t *testing.T) {
	snaps := series(12, signal("f", "..WWWWWWWWWW"))
	fs := frames(snaps)
	live := newEngineWith(DefaultConfig(), []rule{fakeRule("f")})
	var want []snapshot.Finding
	for i := range fs {
		want, _ = live.Evaluate(fs[:i+1])
	}
	// A fresh engine handed only the whole window (a seek) must agree.
	seek := newEngineWith(DefaultConfig(), []rule{fakeRule("f")})
	got, _ := seek.Evaluate(fs)
	if len(got) != 1 || len(want) != 1 || !got[0].Since.Equal(want[0].Since) {
		t.Errorf("seek %v, live %v", got, want)
	}
}

func TestEngineSameFrameTwiceDoesNotAdvance(t *testing.T) {
	snaps := series(3, signal("f", "WWW"))
	fs := frames(snaps)
	e := newEngineWith(DefaultConfig(), []rule{fakeRule("f")})
	e.Evaluate(fs[:1])
	for range 5 {
		if got, _ := e.Evaluate(fs[:2]); len(got) != 0 {
			t.Fatalf("re-evaluating frame 1 raised %v", got)
		}
	}
	if got, _ := e.Evaluate(fs); len(got) != 1 {
		t.Errorf("frame 2: %v, want the finding", got)
	}
}

func TestEngineEmptyAndNilWindows(t *testing.T) {
	e := NewEngine(DefaultConfig())
	if f, na := e.Evaluate(nil); f != nil || na != nil {
		t.Errorf("nil window: %v %v", f, na)
	}
	if f, na := e.Evaluate([]*snapshot.Frame{{}}); f != nil || na != nil {
		t.Errorf("frame without snapshot: %v %v", f, na)
	}
}

func TestEveryRuleHasAStableUniqueID(t *testing.T) {
	want := strings.Fields(`query_cache_contention full_scan_update full_scan_select full_scan_storm buffer_pool_miss deep_offset_pagination
		table_lock_contention innodb_table_lock_queue innodb_thread_queue log_buffer_waits checkpoint_age_high disk_saturation swapping mysqld_memory_runaway
		cpu_saturation tmp_disk_tables sort_merge_passes row_lock_waits long_transaction metadata_lock_pileup
		threads_running_high connections_near_max replication_lag server_unresponsive server_restarted deadlock
		replication_stopped global_read_lock_pileup commit_fsync_bound purge_lag semaphore_waits buffer_pool_wait_free
		query_cache_inefficient galera_flow_control galera_node_not_synced galera_cluster_shrunk
		table_cache_thrash prepared_stmt_limit thread_cache_miss open_files_near_limit
		disk_space_low binlog_cache_spill semisync_fallback read_ahead_evicted
		hot_rows runaway_query connection_errors`)
	seen := map[string]bool{}
	for _, r := range allRules() {
		if seen[r.id] {
			t.Errorf("duplicate rule %s", r.id)
		}
		seen[r.id] = true
	}
	for _, id := range want {
		if !seen[id] {
			t.Errorf("rule %s missing", id)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d rules, want %d", len(seen), len(want))
	}
}

func TestHealthyServerRaisesNothing(t *testing.T) {
	snaps := series(20, counters(map[string]float64{
		bpRequests: 50000, bpReads: 10, "Table_locks_immediate": 500, "Table_locks_waited": 0,
		tmpTables: 20, tmpDisk: 0, "Sort_scan": 30, "Sort_range": 10, sortMerge: 0, logWaits: 0,
	}), procs(query(7, 0.2, "Sending data", "SELECT * FROM items WHERE id = 7"), sleeping(8, "web")))
	e := NewEngine(DefaultConfig())
	fs := frames(snaps)
	for i := range fs {
		if got, _ := e.Evaluate(fs[:i+1]); len(got) != 0 {
			t.Fatalf("frame %d: %v", i, got)
		}
	}
}

// everyInterval respaces a series' snapshots d apart (a replay or an import
// sampled at another interval), optionally with jitter alternating ±j.
func everyInterval(d, j time.Duration) edit {
	return func(i int, s *snapshot.Snapshot) {
		jitter := j
		if i%2 == 1 {
			jitter = -j
		}
		if i == 0 {
			jitter = 0
		}
		s.Time = t0.Add(time.Duration(i)*d + jitter)
	}
}

// Persistence is judged by time held, not frames counted: the same 5 s onset
// and 4 s clear are met on the fifth 1-s frame, the tenth 500-ms frame, the
// first 10-s frame, and through sampling jitter.
func TestEnginePersistenceIsTimeHeld(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DefaultPersistence = persistFor(5*time.Second, 4*time.Second)
	cases := []struct {
		name          string
		every, jitter time.Duration
		signal, want  string
	}{
		{"1 s frames", time.Second, 0, ".WWWWWWW.....", ".....WWWWWW.."},
		{"1 s frames with jitter", time.Second, 3 * time.Millisecond, ".WWWWWWW.....", ".....WWWWWW.."},
		{"500 ms frames", 500 * time.Millisecond, 0, ".WWWWWWWWWWWW.........", "..........WWWWWWWWWW.."},
		{"10 s frames: one sample covers the onset", 10 * time.Second, 0, ".WW..", ".WW.."},
		{"short burst at 500 ms never raises", 500 * time.Millisecond, 0, ".WWWWWWWW.WWWWWWWW.", "..................."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			snaps := series(len(c.signal), signal("f", c.signal), everyInterval(c.every, c.jitter))
			if got := fakeTimeline(cfg, snaps, "f", fakeRule("f")); got != c.want {
				t.Errorf("signal %s\n   got %s\n  want %s", c.signal, got, c.want)
			}
		})
	}
}

// A frame after a gap the monitor could not sample across stands for the
// interval measured before it, not for the whole gap: one sighting after a
// minute of silence does not prove a 5-s pile-up.
func TestEnginePersistenceGapIsNotHeld(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DefaultPersistence = persistFor(5*time.Second, 4*time.Second)
	snaps := series(4, signal("f", "..WW"))
	snaps[2].Time = snaps[1].Time.Add(time.Minute)
	snaps[3].Time = snaps[2].Time.Add(time.Second)
	fs := frames(snaps)
	fs[2].Rates = nil // the pipeline's frame right after a gap
	e := newEngineWith(cfg, []rule{fakeRule("f")})
	for i := range fs {
		if got, _ := e.Evaluate(fs[:i+1]); len(got) != 0 {
			t.Fatalf("frame %d raised %v after a gap", i, got)
		}
	}
}
