package testdb

import (
	"errors"
	"flag"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ShortReason is what a test that needs a server says when `go test -short`
// skips it.
const ShortReason = "needs a throwaway MariaDB server (-short)"

// ErrShort is Launch's error under -short: the fast tier starts no server.
var ErrShort = errors.New(ShortReason)

// Short reports whether the tests run with -short (the fast tier). Unlike
// testing.Short it may be called from TestMain before the flags are parsed
// and from code that is not a test.
func Short() bool {
	f := flag.Lookup("test.short")
	return f != nil && f.Value.String() == "true"
}

// SkipShort skips t with ShortReason under -short. Start, StartGalera and
// the tmux helpers call it, so every test that needs a server joins the fast
// tier's skip list without a line of its own; a test that needs a server by
// other means (a shared one from TestMain) calls it first.
func SkipShort(t testing.TB) {
	t.Helper()
	if Short() {
		t.Skip(ShortReason)
	}
}

// heavyGate is the one slot of this test process for CPU-heavy work: busy
// while held; loads counts the ExecHeavy callers waiting, who go before the
// whole-test holders (a bulk load takes seconds, and the waiting test behind
// it would otherwise wait for every heavy test). heavyHolder is the name of
// the test holding the slot through Heavy.
var (
	heavyMu     sync.Mutex
	heavyFree   = sync.NewCond(&heavyMu)
	heavyBusy   bool
	heavyLoads  int
	heavyHolder string
)

// Heavy holds the one slot for CPU-heavy tests (a client that loads the
// server flat out, mariadb-slap, sysbench, a test that measures the host's
// CPU or disk) until t ends: such tests run one at a time, in this process
// and in every other test process of the same `go test` run, while tests
// that mostly wait (lock waits, idle sessions, replication, healthy twins at
// an application's pace) run beside them with t.Parallel. Call it first,
// before Start, so the heavy test's server starts and loads its data inside
// the slot too. (Starting the server first, to let its uptime pass the
// warm-up while the test waits, changes what the test proves: a server up
// for minutes is judged as a warm one, and a 16M pool that was "warming"
// is then a miss.) A proof that is not about warm-up judges with
// WarmupSeconds 0 instead of idling in the slot. A subtest of the holder, or the holder again, passes through.
func Heavy(t testing.TB) {
	t.Helper()
	HeavyUntil(t)
}

// HeavyUntil is Heavy with an early release: a test whose CPU-heavy phase
// is followed by one that mostly waits (a dump to a slow destination) gives
// the slot back when it calls the returned func; the slot is released at
// the test's end otherwise. Call it before Start, as Heavy.
func HeavyUntil(t testing.TB) (release func()) {
	t.Helper()
	SkipShort(t)
	if holdsHeavy(t) {
		return func() {}
	}
	free := acquireHeavy(t, false)
	heavyMu.Lock()
	heavyHolder = t.Name()
	heavyMu.Unlock()
	var once sync.Once
	release = func() {
		once.Do(func() {
			heavyMu.Lock()
			heavyHolder = ""
			heavyMu.Unlock()
			free()
		})
	}
	t.Cleanup(release)
	return release
}

// ExecHeavy is Exec holding the heavy slot while the statements run: a bulk
// load (INSERT … SELECT of 100,000s of rows) in a test that otherwise waits.
func (s *Server) ExecHeavy(t testing.TB, stmts ...string) {
	t.Helper()
	HeavyPart(t, func() { s.Exec(t, stmts...) })
}

// HeavyPart runs part holding the heavy slot: the CPU-heavy step (a bulk
// load, sysbench's prepare) of a test whose watching runs at an
// application's pace beside the heavy tests. Loads go before whole-test
// holders.
func HeavyPart(t testing.TB, part func()) {
	t.Helper()
	SkipShort(t)
	if !holdsHeavy(t) {
		defer acquireHeavy(t, true)()
	}
	part()
}

// holdsHeavy says whether t, or a test above it, holds the slot.
func holdsHeavy(t testing.TB) bool {
	heavyMu.Lock()
	defer heavyMu.Unlock()
	name := t.Name()
	return heavyHolder != "" && (name == heavyHolder || strings.HasPrefix(name, heavyHolder+"/"))
}

// acquireHeavy waits for the slot (a load before any whole test), logs a
// long wait, and returns the release.
func acquireHeavy(t testing.TB, load bool) func() {
	t.Helper()
	began := time.Now()
	heavyMu.Lock()
	if load {
		heavyLoads++
	}
	for heavyBusy || !load && heavyLoads > 0 {
		heavyFree.Wait()
	}
	if load {
		heavyLoads--
	}
	heavyBusy = true
	heavyMu.Unlock()
	unlock := runLock()
	took := time.Now()
	if waited := took.Sub(began); waited >= time.Second {
		t.Logf("testdb: waited %s for the heavy-test slot", waited.Round(100*time.Millisecond))
	}
	return func() {
		unlock()
		// The heavy holds run one after another: the sum of these lines is
		// the floor of the package's time (go run ./scripts/testtimes).
		if held := time.Since(took); held >= time.Second {
			part := ""
			if load {
				part = " (a part)"
			}
			t.Logf("testdb: held the heavy-test slot for %s%s", held.Round(100*time.Millisecond), part)
		}
		// The next heavy test of this process would take the run-wide lock
		// again before another test process, which polls it every lockPoll,
		// could see it free: collectors' two heavy tests waited ten minutes
		// behind every heavy test of analyzers. A pause longer than that poll
		// lets the other process in first when it is waiting.
		time.Sleep(handOver)
		heavyMu.Lock()
		heavyBusy = false
		heavyMu.Unlock()
		heavyFree.Broadcast()
	}
}

// runLock takes the lock between the test processes of one run (lockRun);
// a test of the in-process order alone swaps it, since waiting for the
// other packages' heavy tests held its package, and the `go test` lane it
// ran in, for three minutes.
var runLock = lockRun

// handOver is how long a released heavy slot stays free for other test
// processes before this one takes it again (longer than lockRun's poll).
const handOver = 2 * lockPoll

// Main is a TestMain for a package whose integration tests mostly wait on
// servers (t.Parallel): it runs m with up to parallel tests at once unless
// -test.parallel was given (its default, GOMAXPROCS, is 2 on a 2-core
// machine, which would run waiting tests two by two). CPU-heavy tests take
// Heavy, server starts are throttled (startSlots), so a high number here
// costs waiting, not CPU. It returns m.Run's code.
func Main(m *testing.M, parallel int) int {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(parallel)); err != nil {
			os.Stderr.WriteString("testdb: " + err.Error() + "\n")
		}
	}
	return m.Run()
}

// Tool returns the path of the first of names found (in PATH or the sbin
// directories), or skips t saying which Debian package to install: for the
// tools a test drives beside a server (mariadb-backup, pt-online-schema-change,
// sysbench), which scripts/test installs but a developer's machine may lack
// (under scripts/test a missing tool fails the test: Missing).
func Tool(t testing.TB, pkg string, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := findBinary(name); err == nil {
			return p
		}
	}
	Missing(t, "%s not installed: apt-get install %s", strings.Join(names, " / "), pkg)
	return ""
}
