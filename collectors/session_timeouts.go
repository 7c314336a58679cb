package collectors

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// The monitor's sessions set short session timeouts, so a session it had to
// give up on (a link that stopped forwarding, a statement abandoned at the
// tick's deadline) ends on the server by itself within seconds instead of
// the 8 hours of the default wait_timeout, even when no KILL can reach it.
//
//   - wait_timeout: the sampling session sends a statement every tick, so an
//     idle gap of three intervals (10 s at least) means it was abandoned; the
//     on-demand connection is closed by the monitor after actionIdle unused,
//     so it gets actionIdle plus 10 s.
//   - net_read_timeout, net_write_timeout: 5 s. The monitor reads every result
//     at once and gives up on a statement at the tick's deadline (under a
//     second); a server thread blocked longer writing to it, or waiting for
//     the rest of a packet, writes or waits for nobody.
//   - lock_wait_timeout: the monitor's reads need at most a shared metadata
//     lock; behind a DDL it should fail in a second (2 s for EXPLAIN, which
//     the DBA asked for), not queue for the default year and hold up
//     everything queued behind the DDL with it.
//
// Each is set where the server allows it: a server (or proxy) that refuses
// one keeps its default for that one only.
const (
	sessionNetTimeout    = 5 * time.Second
	sessionLockWait      = 1 // seconds
	actionLockWait       = 2 // seconds
	minSessionWait       = 10 * time.Second
	actionWaitTimeoutPad = 10 * time.Second
)

// sessionWaitTimeout is the sampling session's wait_timeout.
func sessionWaitTimeout(interval time.Duration) time.Duration {
	return max(minSessionWait, (3 * interval).Round(time.Second))
}

// timeoutSettings are the assignments for a session idle at most wait.
func timeoutSettings(wait time.Duration, lockWait int) []string {
	secs := func(d time.Duration) int64 { return int64((d + time.Second - 1) / time.Second) }
	return []string{
		fmt.Sprintf("wait_timeout = %d", secs(wait)),
		fmt.Sprintf("net_read_timeout = %d", secs(sessionNetTimeout)),
		fmt.Sprintf("net_write_timeout = %d", secs(sessionNetTimeout)),
		fmt.Sprintf("lock_wait_timeout = %d", lockWait),
	}
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// setSessionTimeouts applies settings in one statement, or one by one when
// the server refuses the whole. Only a transport error is returned.
func setSessionTimeouts(ctx context.Context, c execer, settings []string) error {
	if len(settings) == 0 {
		return nil
	}
	_, err := c.ExecContext(ctx, tag+"SET SESSION "+strings.Join(settings, ", "))
	if err == nil || serverErrno(err) == 0 {
		return err
	}
	for _, s := range settings {
		if _, err := c.ExecContext(ctx, tag+"SET SESSION "+s); err != nil && serverErrno(err) == 0 {
			return err
		}
	}
	return nil
}
