package collectors

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// errNotConnected is returned by collectors while the server is down.
var errNotConnected = errors.New("not connected")

// serverLink is the connection state the scheduler shares with its
// collectors. The sampling session is replaced only on the tick goroutine,
// but ownIDs reads it from the UI's (a KILL refuses the monitor's own
// threads), and the on-demand connection's id is read by the processlist
// while the UI may be opening it: both atomic.
//
// It also keeps the monitor's account of its own sessions on the server, so
// the monitor never makes a pile-up worse: a session given up on (a
// statement timed out, the link stalled) is an orphan until the server's own
// processlist, read over the next session, shows it gone; one KILL is sent
// for it over that session, never over a connection of its own; and no new
// connection is opened while the sessions the server may hold would exceed
// maxOwnSessions.
type serverLink struct {
	sess        atomic.Pointer[session]
	actionID    atomic.Int64
	companionID atomic.Int64
	// greetingTrust says whether handshake greetings carry the server's
	// thread ids (greeting_trust.go).
	greetingTrust atomic.Int32
	// user is the login the monitor's sessions run as: an orphan is only
	// ever matched to a processlist row of this user.
	user string

	mu sync.Mutex
	// orphans are sessions we gave up on that the server may still hold;
	// hidden from the processlist meanwhile, they are still ours.
	orphans map[int64]*orphan
	// opening counts connections being opened (dial, login, probe).
	opening int
	// actionOpen is set while the on-demand connection is open.
	actionOpen bool
	// kills are orphans seen on the server, to be killed over the sampling
	// session.
	kills []int64
	// serverStart is when the server started, as last read; patience is
	// orphanPatience for the interval.
	serverStart time.Time
	patience    time.Duration
}

// orphan is one of our sessions the server may still hold.
type orphan struct {
	since time.Time
	// until is when it stops counting toward the cap unless seen again:
	// its short session timeouts end an idle one on the server by then.
	until time.Time
	// serverStart is when the server it ran on started: after a restart
	// the id may belong to someone else.
	serverStart time.Time
	killSent    bool
	// companion: the companion session left over, which keeps the slot
	// the cap gives the companion (link_companion.go) while it counts.
	companion bool
}

// maxOwnSessions caps the monitor's connections to one server: the sampling
// session, the on-demand one (EXPLAIN, KILL) and one left over being ended.
const maxOwnSessions = 3

func (l *serverLink) session() *session { return l.sess.Load() }

// setSession makes sess (nil for none) the sampling session.
func (l *serverLink) setSession(sess *session) { l.sess.Store(sess) }

// ownIDs are the monitor's threads, hidden from the processlist.
func (l *serverLink) ownIDs() []int64 {
	ids := make([]int64, 0, 2)
	if sess := l.session(); sess != nil {
		ids = append(ids, sess.ID)
	}
	for _, id := range []int64{l.actionID.Load(), l.companionID.Load()} {
		if id > 0 {
			ids = append(ids, id)
		}
	}
	l.mu.Lock()
	for id := range l.orphans {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	return ids
}

// held is how many sessions the server may hold for the monitor at now,
// counting those being opened; l.mu held.
func (l *serverLink) held(now time.Time) int {
	n := l.opening
	if l.session() != nil {
		n++
	}
	if l.actionOpen {
		n++
	}
	if l.companionOpen() {
		n++
	}
	for _, o := range l.orphans {
		if now.Before(o.until) {
			n++
		}
	}
	return n
}

// reserve takes a slot for a connection about to be opened; false when the
// monitor already holds its cap (maxOwnSessions, one more only for the
// companion: limit). release gives it back once the
// connection is open (and counted as the session or the action connection)
// or has failed.
func (l *serverLink) reserve(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held(now) >= l.limit(now) {
		return false
	}
	l.opening++
	return true
}

func (l *serverLink) release() {
	l.mu.Lock()
	l.opening--
	l.mu.Unlock()
}

// ownSessions is how many sessions the server may hold for the monitor.
func (l *serverLink) ownSessions(now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.held(now)
}

// errSessionCap is why a connection was not opened.
var errSessionCap = fmt.Errorf("the monitor already holds %d sessions on this server (some it gave up on are still being ended): not opening another", maxOwnSessions)

// orphanPatience is how long an orphan counts toward the cap without being
// seen: its session timeouts (wait_timeout, net_write_timeout) end an idle
// or stalled one on the server before then. One seen again counts again.
func orphanPatience(interval time.Duration) time.Duration {
	return sessionWaitTimeout(interval) + sessionNetTimeout + 5*time.Second
}

// stuckPatience is how long an orphan seen alive after its KILL counts
// toward the cap without being seen again: such a thread waits for
// something inside the server, and a new session opened meanwhile would be
// one more stuck beside it. After that the monitor may log in to look again.
const stuckPatience = 5 * time.Minute

// addOrphan records a session we gave up on.
func (l *serverLink) addOrphan(id int64, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addOrphanLocked(id, now)
}

// addOrphanLocked is addOrphan with l.mu held.
func (l *serverLink) addOrphanLocked(id int64, now time.Time) {
	if id <= 0 {
		return
	}
	if l.orphans == nil {
		l.orphans = map[int64]*orphan{}
	}
	l.orphans[id] = &orphan{since: now, until: now.Add(l.patience), serverStart: l.serverStart}
}

// sawProcesses reconciles the orphans with a processlist just read over a
// working session of the server that started at serverStart: those absent,
// or from before a restart, are forgotten; the ones present are returned to
// be killed (takeKills), each once.
func (l *serverLink) sawProcesses(rows []snapshot.Process, serverStart, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !serverStart.IsZero() {
		l.serverStart = serverStart
	}
	if len(l.orphans) == 0 {
		return
	}
	present := map[int64]bool{}
	for i := range rows {
		if _, ok := l.orphans[rows[i].ID]; ok && (l.user == "" || rows[i].User == l.user) {
			present[rows[i].ID] = true
		}
	}
	for id, o := range l.orphans {
		restarted := !o.serverStart.IsZero() && !serverStart.IsZero() && absDuration(o.serverStart.Sub(serverStart)) > 5*time.Second
		if !present[id] || restarted {
			delete(l.orphans, id)
			continue
		}
		o.until = now.Add(l.patience)
		if o.killSent {
			// Still there after its KILL: stuck (on a mutex, say), and
			// its timeouts will not end it either.
			o.until = now.Add(stuckPatience)
		}
		// Killed only when both start times say it is the same server's
		// thread, and only once: a thread stuck on a mutex does not react
		// to KILL, and more KILLs would only queue behind it.
		if !o.killSent && !o.serverStart.IsZero() && !serverStart.IsZero() {
			o.killSent = true
			l.kills = append(l.kills, id)
		}
	}
}

// takeKills returns the orphans to kill now.
func (l *serverLink) takeKills() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := l.kills
	l.kills = nil
	return k
}

// putBackKills queues kills not sent for lack of time.
func (l *serverLink) putBackKills(ids []int64) {
	l.mu.Lock()
	l.kills = append(ids, l.kills...)
	l.mu.Unlock()
}

// forgetOrphan drops an orphan the server says is gone (KILL: unknown thread).
func (l *serverLink) forgetOrphan(id int64) {
	l.mu.Lock()
	delete(l.orphans, id)
	l.mu.Unlock()
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// connectionLost reports whether err means the connection can no longer be
// trusted (timeout, broken socket), as opposed to the server refusing one
// statement.
func connectionLost(err error) bool {
	var netErr net.Error
	switch {
	case err == nil:
		return false
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, mysql.ErrInvalidConn),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, errNotConnected), errors.As(err, &netErr):
		return true
	}
	return false
}

// isDeadline reports a statement or dial that ran out of time.
func isDeadline(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}
