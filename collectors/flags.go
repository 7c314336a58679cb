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
	opts := LiveOptions{Config: cfg, Interval: l.Interval, NoThreadStats: l.NoThreadStats, OneSession: l.OneSession,
		Host: hostFor(connopt.AddressOf(cfg))}
	for _, p := range periods {
		*p.of(&opts) = *p.of(&l.Periods)
	}
	return NewLive(opts)
}
