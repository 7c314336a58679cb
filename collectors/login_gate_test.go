package collectors

import (
	"errors"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestLoginRefusalClassifies(t *testing.T) {
	for _, c := range []struct {
		err  error
		want snapshot.LoginRefusedReason
	}{
		{&mysql.MySQLError{Number: 1045, Message: "Access denied for user 'mon'@'localhost' (using password: YES)"}, snapshot.LoginAccessDenied},
		{&mysql.MySQLError{Number: 4150, Message: "User is blocked because of too many credential errors"}, snapshot.LoginAccountBlocked},
		{&mysql.MySQLError{Number: 3118}, snapshot.LoginAccountLocked},
		{&mysql.MySQLError{Number: 3955}, snapshot.LoginAccountLocked},
		{&mysql.MySQLError{Number: 1129}, snapshot.LoginHostBlocked},
		{&mysql.MySQLError{Number: 1130}, snapshot.LoginHostNotAllowed},
		{&mysql.MySQLError{Number: 1251}, snapshot.LoginAuthMethod},
		{mysql.ErrUnknownPlugin, snapshot.LoginAuthMethod},
		{mysql.ErrCleartextPassword, snapshot.LoginAuthMethod},
		// Failures another attempt may cure.
		{&mysql.MySQLError{Number: 1040}, ""}, // too many connections
		{&mysql.MySQLError{Number: 1226}, ""}, // max_user_connections
		{errors.New("dial tcp 10.0.0.9:3306: connect: connection refused"), ""},
		{nil, ""},
	} {
		if got := loginRefusal(c.err); got != c.want {
			t.Errorf("loginRefusal(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// The budget of password errors: one left for the account's other users,
// and the last of the rest kept for a password the option files change.
func TestLoginBudget(t *testing.T) {
	for _, c := range []struct {
		failures, limit int
		changed, want   bool
	}{
		{1, 0, false, true}, // no limit known: the schedule alone
		{40, 0, false, true},
		{1, 3, false, false}, // 3: after the first refusal, the same password never again
		{1, 3, true, true},   // ... another one once
		{2, 3, true, false},  // ... and no more: a third would block the account
		{1, 2, true, false},  // 2: a second error would block it
		{1, 1, true, false},
		{1, 10, false, true},
		{7, 10, false, true},
		{8, 10, false, false},
		{8, 10, true, true},
		{9, 10, true, false},
	} {
		if got := loginBudget(c.failures, c.limit, c.changed); got != c.want {
			t.Errorf("loginBudget(%d failures, limit %d, changed %v) = %v, want %v", c.failures, c.limit, c.changed, got, c.want)
		}
	}
}

// The real schedule's policy: minutes, doubling, capped at 15.
func TestLoginScheduleIsMinutesCapped(t *testing.T) {
	if loginSchedule[0] < time.Minute {
		t.Errorf("first wait %v: a refused password must not be retried within the minute", loginSchedule[0])
	}
	for i := 1; i < len(loginSchedule); i++ {
		if loginSchedule[i] < loginSchedule[i-1] {
			t.Errorf("wait %d (%v) shorter than the one before", i, loginSchedule[i])
		}
	}
	if last := loginSchedule[len(loginSchedule)-1]; last != 15*time.Minute {
		t.Errorf("cap %v, want 15m", last)
	}
	// Over the first hour of a refusal nobody fixes: how many attempts.
	g := newLoginGate(&mysql.Config{User: "mon", Passwd: "old"}, LiveOptions{})
	start := time.Unix(1_800_000_000, 0)
	denied := &mysql.MySQLError{Number: 1045}
	g.report(g.cfg, denied, start)
	attempts := 1
	for now := start; now.Before(start.Add(time.Hour)); now = now.Add(time.Second) {
		if cfg, err := g.admit(now); err == nil {
			attempts++
			g.report(cfg, denied, now)
		}
	}
	if attempts > 7 {
		t.Errorf("%d attempts in the first hour of a refused password, want at most 7", attempts)
	}
}

// Headless, against a server that blocks at 3 password errors, with the
// password rotated on the server: the same password is not tried again, a
// rotated one in the option files is tried at once, and a wrong rotated
// one is the last: the account never reaches 3.
func TestLoginGateHeadlessNeverSpendsTheAccountsLastError(t *testing.T) {
	files := &mysql.Config{User: "mon", Passwd: "old"}
	opts := LiveOptions{Reload: func() (*mysql.Config, error) { return files.Clone(), nil }}
	g := newLoginGate(&mysql.Config{User: "mon", Passwd: "old"}, opts)
	g.setLimit(3)
	denied := &mysql.MySQLError{Number: 1045}
	now := time.Unix(1_800_000_000, 0)
	g.report(g.cfg, denied, now) // the password rotated on the server: 1 error
	for i := 0; i < 3600; i++ {
		now = now.Add(time.Second)
		if _, err := g.admit(now); err == nil {
			t.Fatalf("tried the refused password again after %ds", i+1)
		}
	}
	files.Passwd = "wrong-too"
	now = now.Add(credentialsEvery)
	cfg, err := g.admit(now)
	if err != nil {
		t.Fatalf("a changed password was not tried: %v", err)
	}
	if cfg.Passwd != "wrong-too" {
		t.Fatalf("tried %q, want the option files' new password", cfg.Passwd)
	}
	g.report(cfg, denied, now) // 2 errors
	files.Passwd = "right"
	for i := 0; i < 3600; i++ {
		now = now.Add(time.Second)
		if _, err := g.admit(now); err == nil {
			t.Fatal("a third attempt would have blocked the account")
		}
	}
	if st := g.state(now); st.reason != snapshot.LoginAccessDenied || !st.retryAt.IsZero() {
		t.Errorf("state %+v: want access_denied and no attempt scheduled", st)
	}
}

// On the dashboard, nothing is tried until the DBA asks, then once, with
// the credentials read again; an accepted login clears the refusal.
func TestLoginGateAsksTheDBA(t *testing.T) {
	files := &mysql.Config{User: "mon", Passwd: "old"}
	opts := LiveOptions{AskBeforeLogin: true, Reload: func() (*mysql.Config, error) { return files.Clone(), nil }}
	g := newLoginGate(&mysql.Config{User: "mon", Passwd: "old"}, opts)
	now := time.Unix(1_800_000_000, 0)
	g.report(g.cfg, &mysql.MySQLError{Number: 1045}, now)
	files.Passwd = "new"
	for i := 0; i < 7200; i++ {
		now = now.Add(time.Second)
		if _, err := g.admit(now); err == nil {
			t.Fatalf("tried to log in after %ds without being asked", i+1)
		}
	}
	g.askAgain()
	cfg, err := g.admit(now)
	if err != nil || cfg.Passwd != "new" {
		t.Fatalf("asked: %v, password %q; want an attempt with the new password", err, cfg.Passwd)
	}
	if _, err := g.admit(now); err == nil {
		t.Fatal("one ask let two attempts through")
	}
	g.report(cfg, nil, now)
	if st := g.state(now); st.reason != "" {
		t.Errorf("still refused after an accepted login: %+v", st)
	}
	if _, err := g.admit(now); err != nil {
		t.Errorf("logins held back after an accepted one: %v", err)
	}
}

// A network failure during an attempt is not a refusal: it neither counts
// nor clears one.
func TestLoginGateNetworkFailureLeavesTheRefusal(t *testing.T) {
	g := newLoginGate(&mysql.Config{User: "mon", Passwd: "pw"}, LiveOptions{loginSchedule: []time.Duration{time.Second}})
	now := time.Unix(1_800_000_000, 0)
	g.report(g.cfg, &mysql.MySQLError{Number: 4150}, now)
	now = now.Add(2 * time.Second)
	cfg, err := g.admit(now)
	if err != nil {
		t.Fatal(err)
	}
	g.report(cfg, errors.New("i/o timeout"), now)
	if st := g.state(now); st.reason != snapshot.LoginAccountBlocked {
		t.Errorf("state %+v, want still account_blocked", st)
	}
	if g.failures != 0 {
		t.Errorf("a blocked account's refusal counted %d password errors", g.failures)
	}
}

func TestFailedLoginAttempts(t *testing.T) {
	for in, want := range map[string]int{
		"CREATE USER `mon`@`%` IDENTIFIED WITH 'caching_sha2_password' AS '$A$005$x' REQUIRE NONE PASSWORD EXPIRE DEFAULT ACCOUNT UNLOCK PASSWORD HISTORY DEFAULT PASSWORD REUSE INTERVAL DEFAULT PASSWORD REQUIRE CURRENT DEFAULT FAILED_LOGIN_ATTEMPTS 3 PASSWORD_LOCK_TIME 1": 3,
		"CREATE USER `mon`@`%` IDENTIFIED WITH 'caching_sha2_password' AS '$A$005$x' REQUIRE NONE PASSWORD EXPIRE DEFAULT ACCOUNT UNLOCK":                                                                                                                                        0,
		"CREATE USER `mon`@`localhost` IDENTIFIED BY PASSWORD '*AAB3E285149C0135D51A520E1940DD3263DC008C'":                                                                                                                                                                       0,
	} {
		if got := failedLoginAttempts(in); got != want {
			t.Errorf("failedLoginAttempts(%.60q…) = %d, want %d", in, got, want)
		}
	}
}
