package collectors

import (
	"context"
	"database/sql"
	"time"
)

// A reconnection is not bound by the tick that starts it. On a loaded
// server, the one an incident is about, a login with its probes can take
// longer than a tick's budget (seen: 22 s of 500-ms ticks after a stall, each
// login cut short at 400 ms, none through). So the attempt runs on its own
// goroutine for up to loginPatience; each tick waits for it within its own
// budget, and until it ends the tick says a login is under way. One attempt
// at a time: a hung server is sent one login, not one a tick.

// loginPatience is how long one reconnection may take before it is given up
// and retried after the backoff: the driver's connect timeout.
func loginPatience(interval time.Duration) time.Duration {
	return max(statementBudget(interval), 10*time.Second)
}

// loginResult is a login's outcome: the session, or the error and the
// session a failed login left, and the account's limit of password errors
// read on the new session.
type loginResult struct {
	began time.Time
	sess  *session
	id    int64 // the session, or the one a failed login left
	limit int
	err   error
}

// pendingLogin is a login under way on its own goroutine.
type pendingLogin struct {
	began  time.Time
	cancel context.CancelFunc
	done   chan struct{}
	res    loginResult // set before done closes
}

func startLogin(db *sql.DB, settings []string, patience time.Duration) *pendingLogin {
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	p := &pendingLogin{began: time.Now(), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer cancel()
		p.res = login(ctx, db, settings)
	}()
	return p
}

// login opens a sampling session and reads the account's limit of password
// errors on it.
func login(ctx context.Context, db *sql.DB, settings []string) loginResult {
	r := loginResult{began: time.Now()}
	r.sess, r.id, r.err = openSession(ctx, db, settings)
	if r.err == nil {
		r.limit = readLoginLimit(ctx, r.sess.conn.Conn, r.sess.Caps.Flavor)
	}
	return r
}

// ended waits for the login until ctx is done and says whether it ended.
func (p *pendingLogin) ended(ctx context.Context) bool {
	select {
	case <-p.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// drop gives the login up; a session it opens all the same is closed.
func (p *pendingLogin) drop() {
	p.cancel()
	go func() {
		<-p.done
		p.res.sess.abandon()
	}()
}
