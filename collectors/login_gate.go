package collectors

import (
	"fmt"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A refused login is not a network failure: retried every few seconds, a
// wrong password blocks the monitoring account within a minute on a server
// that limits password errors (MariaDB's max_password_errors, MySQL's
// FAILED_LOGIN_ATTEMPTS), and with it every tool that shares the account;
// without a limit it writes an "Access denied" line to the error log each
// time. Rotating the monitoring password while the monitor runs is routine.
//
// So every login of a Live (sampling, companion and on-demand sessions)
// goes through one loginGate. After a refusal it lets no attempt reach the
// server until:
//   - on the dashboard (ask), the DBA asks (Ctrl-R), the option files read again;
//   - headless, the next step of loginSchedule (minutes), or at once when the
//     option files, read again every credentialsEvery, give other
//     credentials (the rotated password);
// and never beyond the account's limit of password errors when the server
// told it (loginBudget).

// loginSchedule is how long a headless monitor waits after each refusal in
// a row before trying the same credentials again.
var loginSchedule = []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 15 * time.Minute}

// credentialsEvery is how often the option files are read again while
// logins are refused, to pick up a rotated password within seconds.
const credentialsEvery = 5 * time.Second

type loginGate struct {
	mu       sync.Mutex
	cfg      *mysql.Config // the connection settings; only the credentials change
	reload   func() (*mysql.Config, error)
	ask      bool
	schedule []time.Duration
	log      func(string)
	// limit is the account's limit of password errors, as the server told
	// it at the last login (0: none, or unknown).
	limit int

	refused      snapshot.LoginRefusedReason // "" while logins are accepted
	cause        error                       // the server's refusal
	refusedCreds string                      // the credentials it refused
	failures     int                         // password errors since the last accepted login
	step         int                         // refusals in a row, minus one
	retryAt      time.Time                   // next attempt with the same credentials (zero: none)
	reloadedAt   time.Time
	asked        bool // the DBA asked for an attempt
	trying       bool // an attempt after a refusal is under way
	// loggedIn is set by the first accepted login: a refusal before it ends
	// the command with its own one-line error, so the gate does not log it
	// as a second line.
	loggedIn bool
}

func newLoginGate(cfg *mysql.Config, opts LiveOptions) *loginGate {
	g := &loginGate{cfg: cfg, reload: opts.Reload, ask: opts.AskBeforeLogin, schedule: opts.loginSchedule, log: opts.Log}
	if g.schedule == nil {
		g.schedule = loginSchedule
	}
	if g.log == nil {
		g.log = func(string) {}
	}
	return g
}

// loginRefusedError is what a login the gate holds back returns: the
// server's last refusal, which it wraps (connopt.DescribeConnError reads it).
type loginRefusedError struct {
	reason snapshot.LoginRefusedReason
	cause  error
}

func (e *loginRefusedError) Error() string { return "login refused: " + e.cause.Error() }
func (e *loginRefusedError) Unwrap() error { return e.cause }

// admit returns the settings to log in with now, or the refusal that holds
// the attempt back.
func (g *loginGate) admit(now time.Time) (*mysql.Config, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.refused == "" {
		return g.cfg, nil
	}
	held := &loginRefusedError{reason: g.refused, cause: g.cause}
	if g.trying {
		return nil, held
	}
	if g.ask {
		if !g.asked {
			return nil, held
		}
		g.asked = false
		g.rereadCredentials(now, true)
	} else {
		g.rereadCredentials(now, false)
		changed := credentials(g.cfg) != g.refusedCreds
		if !loginBudget(g.failures, g.limit, changed) {
			return nil, held
		}
		if !changed && (g.retryAt.IsZero() || now.Before(g.retryAt)) {
			return nil, held
		}
	}
	g.trying = true
	return g.cfg, nil
}

// loginBudget says whether another attempt may be made after failures
// password errors, under the account's limit (0: none known). One error is
// left for the account's other users (a DBA, another tool: the server counts
// theirs too, and resets the count only on a successful login), and of the
// rest the last is kept for credentials the option files change: the same
// password is not worth the account's last chance.
func loginBudget(failures, limit int, changed bool) bool {
	if limit <= 0 {
		return true
	}
	spend := limit - 1
	if !changed {
		spend--
	}
	return failures+1 <= spend
}

// report records how a login with cfg ended.
func (g *loginGate) report(cfg *mysql.Config, err error, now time.Time) {
	reason := loginRefusal(err)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.trying = false
	switch {
	case err == nil:
		if g.refused != "" {
			g.log("logged in again")
		}
		g.loggedIn = true
		g.refused, g.cause, g.failures, g.step, g.retryAt = "", nil, 0, 0, time.Time{}
		return
	case reason == "":
		return // the network's or the server's state: the caller's back-off
	}
	if countsAsPasswordError(reason) {
		g.failures++
	}
	if g.refused != "" {
		g.step++
	}
	g.refused, g.cause, g.refusedCreds = reason, err, credentials(cfg)
	g.retryAt = time.Time{}
	if !g.ask {
		g.retryAt = now.Add(g.schedule[min(g.step, len(g.schedule)-1)])
	}
	if g.loggedIn {
		g.log(fmt.Sprintf("login refused (%s): %s", reason, g.nextLocked(now)))
	}
}

// release ends an attempt that never reached the server.
func (g *loginGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.trying = false
}

// askAgain is the DBA asking for one attempt, with the option files read again.
func (g *loginGate) askAgain() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.asked = true
}

// pendingAsk says the DBA asked for an attempt not made yet.
func (g *loginGate) pendingAsk() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.asked
}

// setLimit records the account's limit of password errors (0: none).
func (g *loginGate) setLimit(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.limit = n
}

// loginState is what a snapshot says of the gate.
type loginState struct {
	reason  snapshot.LoginRefusedReason
	cause   error
	retryAt time.Time
	next    string // when the next attempt is, in words
}

func (g *loginGate) state(now time.Time) loginState {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.refused == "" {
		return loginState{}
	}
	st := loginState{reason: g.refused, cause: g.cause, next: g.nextLocked(now)}
	if !g.ask && loginBudget(g.failures, g.limit, false) {
		st.retryAt = g.retryAt
	}
	return st
}

// nextLocked says when the next attempt is, and what the count of password
// errors allows.
func (g *loginGate) nextLocked(now time.Time) string {
	count := ""
	if g.limit > 0 {
		count = fmt.Sprintf(" (%d of the account's %d password errors)", g.failures, g.limit)
	}
	switch {
	case g.ask:
		return "no new attempt until asked" + count
	case !loginBudget(g.failures, g.limit, true):
		return "no new attempt: one more wrong password would leave the account at its limit" + count + "; restart the monitor once the password is right"
	case !loginBudget(g.failures, g.limit, false):
		return "next attempt when the option files give another password" + count
	}
	return fmt.Sprintf("next attempt in %s, or when the option files give another password%s",
		g.retryAt.Sub(now).Round(time.Second), count)
}

// rereadCredentials takes the user and password the option files (login
// path, MYSQL_PWD) give now, at most every credentialsEvery unless now; the
// rest of the settings stay.
func (g *loginGate) rereadCredentials(now time.Time, force bool) {
	if g.reload == nil || (!force && now.Sub(g.reloadedAt) < credentialsEvery) {
		return
	}
	g.reloadedAt = now
	fresh, err := g.reload()
	if err != nil || credentials(fresh) == credentials(g.cfg) {
		return
	}
	cfg := g.cfg.Clone()
	cfg.User, cfg.Passwd = fresh.User, fresh.Passwd
	g.cfg = cfg
	g.log("the option files give other credentials: logging in with them")
}

func credentials(cfg *mysql.Config) string { return cfg.User + "\x00" + cfg.Passwd }
