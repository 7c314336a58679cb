package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/fleet"
	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/snapshot"
)

// isFleet says the flags name several servers: a -h list or a --hosts file.
func (l *liveFlags) isFleet() bool {
	return l.hostsFile != "" || strings.Contains(l.conn.Hosts(), ",")
}

// openFleet builds one member per server, each with the shared options under
// its own. A server that does not answer at start is kept: it shows as
// unresponsive and is retried, as a single server would be mid-session.
func (l *liveFlags) openFleet(stderr io.Writer) ([]fleet.Member, error) {
	if l.interval < 100*time.Millisecond {
		return nil, fmt.Errorf("--interval %v is too short (minimum 100ms)", l.interval)
	}
	ts, def, err := fleet.Targets(l.hostsFile, l.conn.Hosts())
	if err != nil {
		return nil, err
	}
	var ms []fleet.Member
	for _, t := range ts {
		m, err := l.openMember(t, def, stderr)
		if err != nil {
			closeMembers(ms)
			return nil, fmt.Errorf("%s: %v", t.Name, err)
		}
		ms = append(ms, m)
	}
	return ms, nil
}

func (l *liveFlags) openMember(t fleet.Target, def fleet.Defaults, stderr io.Writer) (fleet.Member, error) {
	c := l.conn.For(connopt.Server{Host: t.Host, Port: t.Port, Socket: t.Socket, DSN: t.DSN,
		User: t.User, Password: t.Password, PasswordSet: t.PasswordSet},
		connopt.Server{User: def.User, Password: def.Password, PasswordSet: def.PasswordSet})
	cfg, _, err := c.Config(stderr)
	if err != nil {
		return fleet.Member{}, err
	}
	live, err := l.newLive(cfg)
	if err != nil {
		return fleet.Member{}, err
	}
	ctx, cancel := timeoutContext(5 * time.Second)
	defer cancel()
	if err := live.Connect(ctx); err != nil {
		fmt.Fprintf(stderr, "mytop-go: %s: %v (will keep trying)\n", t.Name, err)
	}
	return fleet.Member{Name: t.Name, Source: live, Builder: newBuilder(snapshot.ModeLive)}, nil
}

func closeMembers(ms []fleet.Member) {
	for _, m := range ms {
		m.Source.Close()
	}
}
