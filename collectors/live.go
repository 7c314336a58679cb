package collectors

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// LiveOptions configure a live source. Zero durations take the defaults.
type LiveOptions struct {
	// Config is the driver configuration, e.g. from connopt.Options.Config.
	Config *mysql.Config
	// Interval is the tick (default 1 s).
	Interval time.Duration
	// Periods of the costlier sources, their flags and defaults in periods
	// (periods.go); replica status is read every ReplicaIdleEvery (30 s)
	// while there is none.
	InnoDBEvery      time.Duration
	VariablesEvery   time.Duration
	ReplicaEvery     time.Duration
	ReplicaIdleEvery time.Duration
	// StatementsEvery is the period of the statement digests.
	StatementsEvery time.Duration
	// Host samples the machine; it runs beside the database collectors and
	// never waits for them. Nil for none.
	Host Collector
	// Explain tunes which running statements get their plan fetched.
	Explain ExplainOptions
	// NoThreadStats turns off the per-thread CPU and I/O reads from /proc.
	NoThreadStats bool
	// MaxBackoff caps the wait between reconnection attempts (default 5 s).
	MaxBackoff time.Duration
	// Reload reads the connection options again (option files, login path,
	// MYSQL_PWD): after a refused login, the user and password it gives are
	// the next attempt's. Nil: the credentials of Config stay.
	Reload func() (*mysql.Config, error)
	// AskBeforeLogin: after a refused login, no attempt is made until
	// LogInAgain (the dashboard, where the DBA sees the refusal). Otherwise
	// attempts follow loginSchedule (minutes) within the account's limit of
	// password errors.
	AskBeforeLogin bool
	// Log receives a line when logins are refused and accepted again (nil:
	// none, as under the dashboard).
	Log func(string)
	// loginSchedule replaces loginSchedule in tests.
	loginSchedule []time.Duration
	// OneSession never opens the companion sampling session (companion.go):
	// status and processlist are then always read one after the other.
	OneSession bool
	// ListBudget is the server time per second the full processlist read may
	// take on average before it is made less often (processlist_cadence.go);
	// 0 is listBudget, negative reads it in full every tick.
	ListBudget time.Duration
}

var _ pipeline.Source = (*Live)(nil)

// Live samples a server once per tick. It implements pipeline.Source.
type Live struct {
	opts    LiveOptions
	address string
	// unencryptedTCP: logins go over TCP without TLS (see connopt.DescribeConnError).
	unencryptedTCP bool
	db             *sql.DB   // sampling pool: one connection in use at a time, none idle
	greeted        greetings // ids of the sampling sessions the server greeted
	gate           *loginGate
	link           serverLink
	side           sideBySide // the companion session (companion.go)
	actions        *actionConn
	entries        []*scheduled
	host           hostRunner
	proc           *serverProc  // mysqld on this machine, confirmed (mysqld_locate.go), or why not
	threads        *threadStats // nil with NoThreadStats

	// tick serialises Next's sampling with Close.
	tick   sync.Mutex
	closed bool

	next      time.Time
	prev      *snapshot.Snapshot
	caps      Capabilities // last known, kept while down
	downSince time.Time
	lastErr   string
	retryAt   time.Time
	// login is a reconnection under way, carried over ticks (login_pending.go).
	login *pendingLogin
	// backoff grows with each lost session or failed connect and is reset
	// only by a tick whose statements all succeeded: a server that accepts
	// logins but times out every read is not reconnected every tick.
	backoff time.Duration
	// settings are the sampling session's timeouts (session_timeouts.go).
	settings []string
	// rotate asks for a new session next tick: the account's grants
	// changed, and a global privilege reaches only new sessions.
	rotate bool

	// Read by the UI's actions from another goroutine.
	lastThreads atomic.Pointer[[]publishedThread]
	sharedCaps  atomic.Pointer[Capabilities]
}

// NewLive prepares a live source; it does not connect until Connect or Next.
func NewLive(opts LiveOptions) (*Live, error) {
	if opts.Config == nil {
		return nil, errors.New("live: no connection configuration")
	}
	opts = opts.withDefaults()
	cfg := opts.Config.Clone()
	// The driver would print to stderr, under the dashboard.
	cfg.Logger = quietLogger{}
	budget := statementBudget(opts.Interval)
	if cfg.Timeout == 0 || cfg.Timeout > budget {
		cfg.Timeout = budget
	}
	l := &Live{opts: opts, address: connopt.AddressOf(cfg), unencryptedTCP: cfg.Net == "tcp" && cfg.TLS == nil}
	l.gate = newLoginGate(cfg, opts)
	connector, err := newGatedConnector(l.gate, func(c *mysql.Config) (driver.Connector, error) { return greetedConnector(c, &l.greeted) })
	if err != nil {
		return nil, fmt.Errorf("live: %v", err)
	}
	l.db = sql.OpenDB(connector)
	l.db.SetMaxIdleConns(0)
	l.link.user, l.link.patience = cfg.User, orphanPatience(opts.Interval)
	l.settings = timeoutSettings(sessionWaitTimeout(opts.Interval), sessionLockWait)
	if l.actions, err = newActionConn(l.gate, &l.link); err != nil {
		return nil, fmt.Errorf("live: %v", err)
	}
	l.proc = newServerProc("/proc", l.address)
	l.side.off, l.side.policy = opts.OneSession, newCompanionPolicy(opts.Interval)
	if l.entries, err = l.opts.timed(l.schedule(), snapshot.Parts); err != nil {
		return nil, fmt.Errorf("live: %v", err)
	}
	l.host = hostRunner{c: opts.Host, address: l.address, mysqld: mysqldProc{proc: l.proc}}
	return l, nil
}

func (o LiveOptions) withDefaults() LiveOptions {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	for _, p := range periods {
		if every := p.of(&o); *every <= 0 {
			*every = p.def
		}
	}
	if o.ReplicaIdleEvery <= 0 {
		o.ReplicaIdleEvery = 30 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 5 * time.Second
	}
	if o.ListBudget == 0 {
		o.ListBudget = listBudget
	}
	return o
}

// statementBudget is how long the database part of a tick may take: shorter
// than the interval, so ticks never overlap and Next returns on time.
func statementBudget(interval time.Duration) time.Duration {
	return interval * 8 / 10
}

// schedule lists the database collectors in the order they run: the cheap
// per-second sources first, so a slow InnoDB dump cannot starve them; InnoDB
// after variables (redo capacity); then the lock sources, which run only
// while something waits and then are what a DBA acts on (after the other
// periodic sources, on a loaded server, the tick ran out and the lock tables
// went unread for a minute, the tree inferred throughout), after InnoDB so
// that on the ticks it is due the lock read uses its status instead of
// sending the statement again; EXPLAIN last, on the time left over. Each
// collector's period is its row's in snapshot.Parts (LiveOptions.timed).
func (l *Live) schedule() []*scheduled {
	link := &l.link
	l.side.procs = &processlist{link: link, cad: newListCadence(l.opts.Interval, l.opts.ListBudget)}
	entries := []*scheduled{
		{c: &status{link: link}},
		// Read on the companion beside the status, when one is open.
		{c: l.side.procs},
		{c: &variables{link: link}},
		// After status, whose refusal counters say when to read, and the
		// variables, which say where the log is.
		{c: newErrorLog(l.proc)},
	}
	// After the processlist, whose rows it annotates, and the variables,
	// which say whether a thread pool is on.
	if !l.opts.NoThreadStats {
		l.threads = newThreadStats(link, l.opts.Interval, l.proc)
		entries = append(entries, &scheduled{c: l.threads})
	}
	return append(entries,
		&scheduled{c: &innoDB{link: link}},
		// After the status and the processlist, which say whether anything
		// waits, and InnoDB, whose status of this tick it reuses.
		&scheduled{c: &locks{link: link, budget: lockBudget(l.opts.Interval)}},
		&scheduled{c: &replica{link: link, idleEvery: l.opts.ReplicaIdleEvery}},
		&scheduled{c: &innoDBSize{link: link}},
		&scheduled{c: newDiskSpace(l.proc)},
		&scheduled{c: newPressure(l.proc)},
		&scheduled{c: &preparedOwners{link: link}},
		// After status, whose Aborted_connects says when to read.
		&scheduled{c: &hostCache{link: link}},
		&scheduled{c: &accountLimits{link: link}},
		// After the processlist, whose appliers say which table to read.
		&scheduled{c: &appliedTables{link: link}},
		// After status, whose Memory_used says when to read.
		&scheduled{c: &memoryHolders{link: link}},
		&scheduled{c: &digests{link: link}},
		&scheduled{c: newExplainer(link, l.actions, l.opts.Explain)},
	)
}

// Address is where the server is, without credentials.
func (l *Live) Address() string { return l.address }

// Connect opens the sampling connection now, so a wrong password or host is
// reported before the dashboard starts. The error is one clear line.
func (l *Live) Connect(ctx context.Context) error {
	l.tick.Lock()
	defer l.tick.Unlock()
	if l.link.session() != nil {
		return nil
	}
	if _, err := l.open(ctx, time.Now()); err != nil {
		return errors.New(connopt.DescribeConnError(err, l.address, l.unencryptedTCP))
	}
	return nil
}

// Capabilities returns what was learnt about the server at the last connect.
// Safe from any goroutine.
func (l *Live) Capabilities() Capabilities {
	if c := l.sharedCaps.Load(); c != nil {
		return *c
	}
	return Capabilities{}
}

// adopt makes sess the sampling session; every collector is due at once since
// the server may have restarted with other settings.
func (l *Live) adopt(sess *session) {
	l.link.setSession(sess)
	l.caps = sess.Caps
	caps := sess.Caps
	l.sharedCaps.Store(&caps)
	for _, e := range l.entries {
		e.lastRun = time.Time{}
	}
}

// Next waits for the next tick and returns its snapshot. It returns within
// the interval of the tick even when the server hangs.
func (l *Live) Next(ctx context.Context) (*snapshot.Snapshot, error) {
	if err := l.waitTick(ctx); err != nil {
		return nil, err
	}
	l.tick.Lock()
	defer l.tick.Unlock()
	if l.closed {
		return nil, errClosed
	}
	now := time.Now()
	s := &snapshot.Snapshot{Time: now, Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
	tickCtx, cancel := context.WithDeadline(ctx, now.Add(statementBudget(l.opts.Interval)))
	defer cancel()
	hostDone := l.host.start(tickCtx, now)
	if l.threads != nil && l.link.session() != nil {
		l.threads.begin(now, l.prev) // its /proc reads, beside the SQL ones
	}
	l.sampleDB(tickCtx, s)
	if l.threads != nil {
		l.threads.join() // when the collector did not run this tick
	}
	l.host.finish(tickCtx, hostDone, s)
	l.actions.closeIfIdle(now)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.prev = s
	l.publish(s)
	return s, nil
}

// waitTick sleeps until the next tick; missed ticks are skipped, not queued.
func (l *Live) waitTick(ctx context.Context) error {
	now := time.Now()
	if l.next.IsZero() {
		l.next = now
	}
	if wait := l.next.Sub(now); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	l.next = l.next.Add(l.opts.Interval)
	if now := time.Now(); !l.next.After(now) {
		l.next = now.Add(l.opts.Interval)
	}
	return nil
}

// errClosed is returned by Next after Close.
var errClosed = errors.New("live source closed")

// Close releases both connections. It may be called while Next waits.
func (l *Live) Close() error {
	l.tick.Lock()
	defer l.tick.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if l.login != nil {
		l.login.drop()
		l.login = nil
	}
	l.closeCompanion(time.Now(), false)
	l.link.session().abandon()
	l.link.setSession(nil)
	l.actions.close()
	l.proc.rd.closeAll()
	if l.threads != nil {
		l.threads.rd.closeAll()
	}
	return l.db.Close()
}

// quietLogger drops the driver's log lines; failures reach the user through
// Snapshot.Server.Error and CollectorState.Error instead.
type quietLogger struct{}

func (quietLogger) Print(...any) {}

// LogInAgain is the DBA asking, after a refused login, for one attempt with
// the credentials the option files give now. Safe from any goroutine.
func (l *Live) LogInAgain() { l.gate.askAgain() }
