package fleet

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/pipeline"
)

// IsFleet says the flags name several servers: a -h list or a --hosts file.
func IsFleet(lf *collectors.LiveFlags) bool {
	return lf.HostsFile != "" || strings.Contains(lf.Conn.Hosts(), ",")
}

// Open builds the members the flags name, each with a Builder from
// newBuilder. One server is a fleet of one, connected first, so a wrong
// password is one line and exit 1 as for the dashboard. Of several, each
// takes the shared options under its own, and a server that does not answer
// at start is kept: it shows as unresponsive and is retried, as a single
// server would be mid-session.
func Open(lf *collectors.LiveFlags, newBuilder func() *pipeline.Builder, stderr io.Writer) ([]Member, error) {
	if !IsFleet(lf) {
		live, err := lf.Open(stderr)
		if err != nil {
			return nil, err
		}
		return []Member{{Name: live.Address(), Source: live, Builder: newBuilder()}}, nil
	}
	if err := lf.CheckInterval(); err != nil {
		return nil, err
	}
	ts, def, err := targets(lf.HostsFile, lf.Conn.Hosts())
	if err != nil {
		return nil, err
	}
	var ms []Member
	for _, t := range ts {
		live, err := openMember(lf, t, def, stderr)
		if err != nil {
			Close(ms)
			return nil, fmt.Errorf("%s: %v", t.Name, err)
		}
		ms = append(ms, Member{Name: t.Name, Source: live, Builder: newBuilder()})
	}
	return ms, nil
}

func openMember(lf *collectors.LiveFlags, t target, def defaults, stderr io.Writer) (*collectors.Live, error) {
	c := lf.Conn.For(t.Server, def)
	live, err := lf.Build(c, stderr)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := live.Connect(ctx); err != nil {
		fmt.Fprintf(stderr, "mytop-go: %s: %v (will keep trying)\n", t.Name, err)
	}
	return live, nil
}

// Close closes every member's source (Run does so itself when it ends).
func Close(ms []Member) {
	for _, m := range ms {
		m.Source.Close()
	}
}
