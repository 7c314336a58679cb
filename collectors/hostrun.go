package collectors

import (
	"context"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// hostRunner runs the host collector beside the database ones. It samples
// into a scratch snapshot so the two never write the same memory, and skips a
// tick rather than start a second sample while one is still running.
type hostRunner struct {
	c       Collector
	address string
	pending chan hostResult
	mysqld  mysqldProc
	busiest busiestProcs
}

type hostResult struct {
	host    *snapshot.Host
	err     error
	latency time.Duration
}

// start begins this tick's host sample; nil when none was started.
func (h *hostRunner) start(ctx context.Context, now time.Time) chan hostResult {
	if h.c == nil {
		return nil
	}
	if h.pending != nil {
		select {
		case <-h.pending: // a late result from an earlier tick: drop it
			h.pending = nil
		default:
			return nil
		}
	}
	ch := make(chan hostResult, 1)
	h.pending = ch
	go func() {
		scratch := &snapshot.Snapshot{Time: now, Server: snapshot.ServerInfo{Address: h.address}}
		t0 := time.Now()
		err := h.c.Collect(ctx, scratch)
		ch <- hostResult{host: scratch.Host, err: err, latency: time.Since(t0)}
	}()
	return ch
}

// finish waits for the sample until the tick's deadline.
func (h *hostRunner) finish(ctx context.Context, ch chan hostResult, s *snapshot.Snapshot) {
	if h.c == nil {
		return
	}
	if ch == nil {
		s.Collectors[snapshot.CollectorHost] = snapshot.CollectorState{Stale: true, Error: "previous host sample still running"}
		return
	}
	select {
	case r := <-ch:
		h.pending = nil
		s.Host = r.host
		h.mysqld.fill(s)
		h.busiest.fill(s)
		st := snapshot.CollectorState{Latency: r.latency}
		if r.err != nil {
			st.Stale, st.Error = true, firstLine(r.err.Error())
		}
		s.Collectors[snapshot.CollectorHost] = st
	case <-ctx.Done():
		s.Collectors[snapshot.CollectorHost] = snapshot.CollectorState{Stale: true, Error: "timed out"}
	}
}
