package collectors

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

func next(t *testing.T, l *Live) *snapshot.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := l.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return s
}

// nextAnswered is next, ticking again (for up to 15 s) while a collector
// was skipped because the tick ran out: on a loaded machine a tick's budget
// can end before every collector has run, and the test is about what they
// read, not about the budget.
func nextAnswered(t *testing.T, l *Live) *snapshot.Snapshot {
	t.Helper()
	for end := time.Now().Add(15 * time.Second); ; {
		s := next(t, l)
		if !ranOutOfTick(s) || time.Now().After(end) {
			return s
		}
	}
}

func ranOutOfTick(s *snapshot.Snapshot) bool {
	for _, st := range s.Collectors {
		if strings.Contains(st.Error, "within the tick") {
			return true
		}
	}
	return false
}

func openDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// threadRunning returns the processlist row whose Info is q, if any.
func threadRunning(s *snapshot.Snapshot, q string) (snapshot.Process, bool) {
	for _, p := range s.Processlist {
		if p.Info == q {
			return p, true
		}
	}
	return snapshot.Process{}, false
}

func TestLiveProcesslistShowsRunningSleep(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	const q = "SELECT SLEEP(5)"
	go openDB(t, srv.DSN("")).Exec(q)

	deadline := time.Now().Add(4 * time.Second)
	for time.Now().Before(deadline) {
		s := next(t, l)
		for _, p := range s.Processlist {
			if strings.Contains(p.Info, "mytop-go") {
				t.Fatalf("the monitor's own statement is visible: %+v", p)
			}
		}
		p, ok := threadRunning(s, q)
		if !ok || p.TimeMS < 1000 {
			continue
		}
		if p.State != "User sleep" || p.Command != "Query" || p.User != "root" {
			t.Errorf("got %+v", p)
		}
		if s.Server.Flavor != snapshot.FlavorMariaDB || !strings.Contains(s.Server.Version, "MariaDB") {
			t.Errorf("server %+v", s.Server)
		}
		if s.Server.Address != srv.Socket {
			t.Errorf("address %q, want %q", s.Server.Address, srv.Socket)
		}
		st := s.Collectors[snapshot.CollectorProcesslist]
		if st.Stale || st.Unavailable != "" || st.Latency <= 0 {
			t.Errorf("processlist state %+v", st)
		}
		return
	}
	t.Fatal("SELECT SLEEP(5) never showed up running for 1 s")
}

func TestLiveStatusCountsQueries(t *testing.T) {
	t.Parallel()
	// A server of its own: another test's long statement would add the
	// monitor's detail queries to the count.
	srv := testdb.Start(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	work := openDB(t, srv.DSN(""))
	work.SetMaxIdleConns(1)
	if err := work.Ping(); err != nil {
		t.Fatal(err)
	}
	// A tick that times out reconnects, and the reconnect's probes add
	// SELECTs of their own: measure again when that happened.
	for attempt := 0; attempt < 3; attempt++ {
		awaitHealthy(t, l)
		// The connection-to-thread map read at the first tick (and every
		// 10 s) is counted by the next tick's status.
		before := next(t, l)
		sess := l.link.session()
		const n = 137
		for range n {
			var one int
			if err := work.QueryRow("SELECT 1").Scan(&one); err != nil {
				t.Fatal(err)
			}
		}
		after := next(t, l)
		if l.link.session() != sess || !allFresh(after) {
			continue
		}
		a, _ := before.StatusInt("Com_select")
		b, _ := after.StatusInt("Com_select")
		// The monitor itself sends no SELECT on a quiet server.
		if got := b - a; got != n {
			t.Errorf("Com_select grew by %d, want %d", got, n)
		}
		r := snapshot.Delta(before, after)
		rate, ok := r.Rate("Com_select")
		secs := after.Time.Sub(before.Time).Seconds()
		if !ok || rate < float64(n)/secs*0.99 || rate > float64(n)/secs*1.01 {
			t.Errorf("Com_select rate %.1f/s over %.2fs, want about %.1f/s", rate, secs, float64(n)/secs)
		}
		return
	}
	t.Fatal("no two consecutive healthy ticks on one connection")
}

func TestLiveInnoDBAndVariables(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	first := next(t, l)
	if !first.VariablesChanged || first.Variables["innodb_log_file_size"] != "4194304" {
		t.Fatalf("first snapshot variables: changed=%v size=%q", first.VariablesChanged, first.Variables["innodb_log_file_size"])
	}
	ib := first.InnoDB
	if ib == nil {
		t.Fatalf("no InnoDB status: %+v", first.Collectors[snapshot.CollectorInnoDB])
	}
	if ib.BufferPool.SizePages <= 0 || ib.Log.SequenceNumber <= 0 || ib.Transactions.TrxIDCounter <= 0 {
		t.Errorf("zero InnoDB fields: pool %d pages, LSN %d, trx id %d", ib.BufferPool.SizePages, ib.Log.SequenceNumber, ib.Transactions.TrxIDCounter)
	}
	if ib.Log.CapacityBytes != 4<<20 {
		t.Errorf("redo capacity %d, want 4 MiB from the variables", ib.Log.CapacityBytes)
	}
	second := next(t, l)
	if second.VariablesChanged || second.Variables == nil {
		t.Errorf("unchanged variables: changed=%v present=%v", second.VariablesChanged, second.Variables != nil)
	}
	if second.InnoDB != ib || second.Collectors[snapshot.CollectorInnoDB].Stale {
		t.Errorf("InnoDB not carried forward between its periods: %+v", second.Collectors[snapshot.CollectorInnoDB])
	}
	if second.Replica != nil || second.Collectors[snapshot.CollectorReplica].Unavailable != "" {
		t.Errorf("not a replica: %v %+v", second.Replica, second.Collectors[snapshot.CollectorReplica])
	}
}

func TestLiveWithoutProcessPrivilege(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	srv.Exec(t, "CREATE USER IF NOT EXISTS 'noproc'@'localhost' IDENTIFIED BY 'pw'",
		"GRANT SELECT ON *.* TO 'noproc'@'localhost'")
	o := connopt.Options{Socket: srv.Socket, User: "noproc", Password: "pw", PasswordSet: true}
	l := newLive(t, o, testInterval, nil)

	const rootQ, ownQ = "SELECT SLEEP(3) /* root */", "SELECT SLEEP(3) /* noproc */"
	go openDB(t, srv.DSN("")).Exec(rootQ)
	ownDB := openDB(t, strings.Replace(srv.DSN(""), "root@", "noproc:pw@", 1))
	go ownDB.Exec(ownQ)

	deadline := time.Now().Add(2500 * time.Millisecond)
	for time.Now().Before(deadline) {
		s := next(t, l)
		if _, ok := threadRunning(s, ownQ); !ok {
			continue
		}
		if _, ok := threadRunning(s, rootQ); ok {
			t.Error("a user without PROCESS sees root's thread")
		}
		if got := s.Collectors[snapshot.CollectorProcesslist].Unavailable; got != noProcessPrivilege {
			t.Errorf("processlist unavailable = %q", got)
		}
		if got := s.Collectors[snapshot.CollectorInnoDB].Unavailable; got != "needs the PROCESS privilege" || s.InnoDB != nil {
			t.Errorf("innodb unavailable = %q", got)
		}
		if got := s.Collectors[snapshot.CollectorReplica].Unavailable; !strings.Contains(got, "SLAVE MONITOR") {
			t.Errorf("replica unavailable = %q", got)
		}
		if s.Status == nil {
			t.Error("status must still be collected")
		}
		return
	}
	t.Fatal("the user's own SLEEP never showed up")
}

func TestLiveConnectErrorIsOneLine(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	o := connopt.Options{Socket: srv.Socket, User: "root", Password: "wrong-secret", PasswordSet: true}
	l := newLive(t, o, testInterval, nil)
	err := l.Connect(context.Background())
	if err == nil || !strings.HasPrefix(err.Error(), "access denied for user 'root'@'localhost'") || strings.Contains(err.Error(), "wrong-secret") {
		t.Fatalf("got %v", err)
	}
	s := next(t, l)
	if !s.Server.Unreachable || !strings.Contains(s.Server.Error, "access denied") {
		t.Errorf("server %+v", s.Server)
	}
}

func TestLiveOverTCPWithPortFlag(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	flags := connopt.Options{Host: "localhost", Port: srv.Port, User: "root", PasswordSet: true, NoDefaults: true}
	o, _, err := flags.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	l := newLive(t, o, testInterval, nil)
	if err := l.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := awaitHealthy(t, l)
	if want := srv.Addr(); s.Server.Address != want {
		t.Errorf("address %q, want %q", s.Server.Address, want)
	}
}

// The monitor must not add to what it diagnoses: on an idle MariaDB its
// per-tick statements create no on-disk temporary table and run no SELECT.
// (SHOW GLOBAL STATUS itself makes one in-memory temporary table.)
func TestLiveIdleTickCost(t *testing.T) {
	// Serial: counts a tick's statements, unmeasurable when a tick runs out of budget on a loaded machine.
	srv := testdb.Start(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	awaitHealthy(t, l)
	// The first tick reads the connection-to-thread map (one temporary table,
	// one SELECT); the status read first in the next tick counts them.
	first := next(t, l)
	var last *snapshot.Snapshot
	for range 4 {
		last = next(t, l)
	}
	if !allFresh(last) {
		t.Skip("a tick timed out on this loaded machine; cost not measurable")
	}
	for _, name := range []string{"Created_tmp_disk_tables", "Com_select"} {
		a, _ := first.StatusInt(name)
		b, _ := last.StatusInt(name)
		if b != a {
			t.Errorf("%s grew by %d over 4 idle ticks", name, b-a)
		}
	}
}

// TestLiveSelfTmpBetweenMeasurements: the short global read that measures
// what the full SHOW GLOBAL STATUS leaves behind runs on the first tick only
// (then every selfTmpMeasureEvery); the ticks between reuse it. On a server
// where the monitor is the only client, its own counted on-disk tables must
// still match the server's.
func TestLiveSelfTmpBetweenMeasurements(t *testing.T) {
	// Serial: counts a tick's statements, unmeasurable when a tick runs out of budget on a loaded machine.
	// A status table larger than tmp_table_size: each full read goes to disk.
	srv := testdb.Start(t, "--tmp-table-size=1M")
	l := newLive(t, rootOptions(srv), testInterval, func(o *LiveOptions) { o.NoThreadStats = true })
	awaitHealthy(t, l)
	first := next(t, l)
	var last *snapshot.Snapshot
	for range 5 {
		last = next(t, l)
	}
	if !allFresh(last) {
		t.Skip("a tick timed out on this loaded machine; cost not measurable")
	}
	for _, name := range ownTmpNames {
		a, _ := first.StatusInt(name)
		if b, _ := last.StatusInt(name); b == a {
			t.Fatalf("%s did not move: the full read stayed in memory", name)
		}
	}
	checkOwnTmp(t, "", first, last)
}

// checkOwnTmp fails when the monitor's own counted temporary tables between
// two samples differ from the server's (the monitor being its only client).
func checkOwnTmp(t *testing.T, server string, first, last *snapshot.Snapshot) {
	t.Helper()
	for _, name := range ownTmpNames {
		a, _ := first.StatusInt(name)
		b, _ := last.StatusInt(name)
		if own := statusNumber(last.SelfStatus[name]) - statusNumber(first.SelfStatus[name]); float64(b-a) != own {
			t.Errorf("%s%s: server +%d, the monitor's own counted +%.0f", server, name, b-a, own)
		}
	}
}

// TestLiveSelfTmpEveryInterval: the monitor's own counted tables match the
// server's in every interval, whether the session counters were read (the
// variables, InnoDB status and thread map ran since) or skipped; and a quiet
// tick sends one SHOW STATUS, not two.
func TestLiveSelfTmpEveryInterval(t *testing.T) {
	// Serial: counts a tick's statements, unmeasurable when a tick runs out of budget on a loaded machine.
	srv := testdb.Start(t, "--tmp-table-size=1M")
	cases := []struct {
		name string
		opts func(*LiveOptions)
		// oneShow: of 8 ticks, how many at least send no session read
		oneShow int
	}{
		// No statement but status and processlist on most ticks.
		{"quiet", func(o *LiveOptions) { o.NoThreadStats = true }, 4},
		// SHOW GLOBAL VARIABLES every other tick: its table is learnt from
		// one run, and the runs after it cost no session read (4 without).
		{"variables", func(o *LiveOptions) { o.NoThreadStats, o.VariablesEvery = true, 2*testInterval }, 6},
		{"busy", func(o *LiveOptions) { o.VariablesEvery, o.InnoDBEvery = 3*testInterval, 4*testInterval }, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := newLive(t, rootOptions(srv), testInterval, c.opts)
			awaitHealthy(t, l)
			prev := next(t, l)
			oneShow := 0
			for range 8 {
				s := next(t, l)
				if !allFresh(s) {
					t.Skip("a tick timed out on this loaded machine; cost not measurable")
				}
				checkOwnTmp(t, "", prev, s)
				a, _ := prev.StatusInt("Com_show_status")
				b, _ := s.StatusInt("Com_show_status")
				if b-a == 1 {
					oneShow++
				}
				prev = s
			}
			if oneShow < c.oneShow {
				t.Errorf("only %d of 8 ticks skipped the session read, want %d", oneShow, c.oneShow)
			}
		})
	}
}
