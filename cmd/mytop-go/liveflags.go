package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/connopt"
)

// liveFlags are the options of a live source, shared by the dashboard and record.
type liveFlags struct {
	conn           *connopt.Flags
	interval       time.Duration
	innodbEvery    time.Duration
	variablesEvery time.Duration
	replicaEvery   time.Duration
	stmtsEvery     time.Duration
	hostsFile      string
	noThreadStats  bool
}

func addLiveFlags(fs *flag.FlagSet) *liveFlags {
	l := &liveFlags{conn: connopt.AddFlags(fs)}
	fs.DurationVar(&l.interval, "interval", time.Second, "sampling interval")
	fs.DurationVar(&l.innodbEvery, "innodb-interval", 5*time.Second, "how often to read SHOW ENGINE INNODB STATUS")
	fs.DurationVar(&l.variablesEvery, "variables-interval", 10*time.Second, "how often to check variables for changes")
	fs.StringVar(&l.hostsFile, "hosts", "", "file naming several servers, one host[:port] or DSN per line")
	fs.DurationVar(&l.replicaEvery, "replica-interval", 0, "how often to read replica status (default: every tick; every 30 s while the server is no replica)")
	fs.DurationVar(&l.stmtsEvery, "statements-interval", 5*time.Second, "how often to read the statement digests (performance_schema)")
	fs.BoolVar(&l.noThreadStats, "no-thread-stats", false, "do not read each connection's CPU and I/O from /proc (a server on this machine)")
	return l
}

// open connects, so a wrong password or an unreachable server is one line and
// a non-zero exit before any screen is drawn.
func (l *liveFlags) open(stderr io.Writer) (*collectors.Live, error) {
	if l.interval < 100*time.Millisecond {
		return nil, fmt.Errorf("--interval %v is too short (minimum 100ms)", l.interval)
	}
	cfg, _, err := l.conn.Config(stderr)
	if err != nil {
		return nil, err
	}
	live, err := l.newLive(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := timeoutContext(10 * time.Second)
	defer cancel()
	if err := live.Connect(ctx); err != nil {
		live.Close()
		return nil, err
	}
	return live, nil
}

// newLive builds the live source of one server without connecting.
func (l *liveFlags) newLive(cfg *mysql.Config) (*collectors.Live, error) {
	return collectors.NewLive(collectors.LiveOptions{
		Config:          cfg,
		Interval:        l.interval,
		InnoDBEvery:     l.innodbEvery,
		VariablesEvery:  l.variablesEvery,
		ReplicaEvery:    l.replicaEvery,
		StatementsEvery: l.stmtsEvery,
		NoThreadStats:   l.noThreadStats,
		Host:            collectors.HostFor(connopt.AddressOf(cfg)),
	})
}
