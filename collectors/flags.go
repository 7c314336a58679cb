package collectors

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
)

// LiveFlags are the command-line options of a live source, shared by the
// dashboard, record and serve: the mysql client's connection options, how
// often each collector runs, and a --hosts file naming several servers
// (package fleet reads it).
type LiveFlags struct {
	Conn     *connopt.Flags
	Interval time.Duration
	// Periods holds the collectors' periods the flags set (periods.go);
	// its other fields are unused.
	Periods       LiveOptions
	HostsFile     string
	NoThreadStats bool
	OneSession    bool
	// ListBudget is --list-budget: 0 reads the processlist in full every tick.
	ListBudget time.Duration
	// OnScreen: a dashboard draws over the terminal, so refused logins are
	// not logged to stderr (the header says them); a single server's
	// dashboard then also waits for the DBA to ask before logging in again.
	OnScreen bool
}

// AddLiveFlags registers the options of a live source on fs.
func AddLiveFlags(fs *flag.FlagSet) *LiveFlags {
	l := &LiveFlags{Conn: connopt.AddFlags(fs)}
	fs.DurationVar(&l.Interval, "interval", time.Second, "sampling interval")
	for _, p := range periods {
		fs.DurationVar(p.of(&l.Periods), p.flag, p.def, p.usage)
	}
	fs.StringVar(&l.HostsFile, "hosts", "", "file naming several servers, one host[:port] or DSN per line")
	fs.BoolVar(&l.NoThreadStats, "no-thread-stats", false, "do not read each connection's CPU and I/O from /proc (a server on this machine)")
	fs.BoolVar(&l.OneSession, "one-session", false, "never open a second sampling session to read the processlist beside the status (opened only while both reads are slow, on a healthy server)")
	fs.DurationVar(&l.ListBudget, "list-budget", listBudget, "server time a second the full processlist read may cost before it is read less often (while nothing runs); 0 reads it in full every tick")
	return l
}

// CheckInterval refuses a tick too short to sample a server in.
func (l *LiveFlags) CheckInterval() error {
	if l.Interval < 100*time.Millisecond {
		return fmt.Errorf("--interval %v is too short (minimum 100ms)", l.Interval)
	}
	return nil
}

// Open connects to the server the flags name, so a wrong password or an
// unreachable server is one line and a non-zero exit before any screen is
// drawn.
func (l *LiveFlags) Open(stderr io.Writer) (*Live, error) {
	if err := l.CheckInterval(); err != nil {
		return nil, err
	}
	live, err := l.Build(l.Conn, stderr)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := live.Connect(ctx); err != nil {
		live.Close()
		return nil, err
	}
	return live, nil
}

// Build is the live source, not yet connected, of the server conn names:
// the flags' own connection options, or those of one server of a fleet
// (connopt.Flags.For). This machine is sampled only when the server runs on
// it.
func (l *LiveFlags) Build(conn *connopt.Flags, stderr io.Writer) (*Live, error) {
	cfg, _, err := conn.Config(stderr)
	if err != nil {
		return nil, err
	}
	addr := connopt.AddressOf(cfg)
	opts := LiveOptions{Config: cfg, Interval: l.Interval, NoThreadStats: l.NoThreadStats, OneSession: l.OneSession,
		ListBudget: l.ListBudget, Host: hostFor(addr), Reload: conn.Reload}
	if l.ListBudget <= 0 {
		opts.ListBudget = -1 // every tick
	}
	if l.OnScreen {
		opts.AskBeforeLogin = conn == l.Conn // a fleet's member goes on alone
	} else {
		opts.Log = func(line string) { fmt.Fprintf(stderr, "mytop-go: %s: %s\n", addr, line) }
	}
	for _, p := range periods {
		*p.of(&opts) = *p.of(&l.Periods)
	}
	return NewLive(opts)
}
