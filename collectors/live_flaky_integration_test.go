package collectors

import (
	"context"
	"net"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
)

// A link that stops forwarding without closing, then recovers, ten times in
// two minutes: the server never holds more than 3 of the monitor's sessions,
// and each session left behind is gone within 60 s of the link's return,
// counted from the server's own processlist over a direct connection.
func TestLiveFlakyLinkLeavesNoPileUp(t *testing.T) {
	t.Parallel()
	srv := sharedServer(t)
	const user = "flaky_link"
	srv.Exec(t, "CREATE USER IF NOT EXISTS '"+user+"'@'127.0.0.1'", "GRANT PROCESS ON *.* TO '"+user+"'@'127.0.0.1'")
	proxy := newStallProxy(t, srv.Addr())
	host, port := splitHostPort(t, proxy.addr())
	l := newLive(t, connopt.Options{Host: host, Port: port, User: user, PasswordSet: true}, time.Second,
		func(o *LiveOptions) { o.MaxBackoff = 0; o.NoThreadStats = true })

	ctx, cancel := context.WithCancel(context.Background())
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for ctx.Err() == nil {
			l.Next(ctx)
		}
	}()
	defer func() { cancel(); sampler.Wait() }()

	// The server's view, four times a second: every session of the user.
	admin := openDB(t, srv.DSN(""))
	type life struct{ first, last time.Time }
	var mu sync.Mutex
	lives := map[int64]*life{}
	most := 0
	watch := func() int {
		rows, err := admin.Query("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = ?", user)
		if err != nil {
			t.Error(err)
			return 0
		}
		defer rows.Close()
		now, n := time.Now(), 0
		mu.Lock()
		defer mu.Unlock()
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			n++
			if lives[id] == nil {
				lives[id] = &life{first: now}
			}
			lives[id].last = now
		}
		most = max(most, n)
		return n
	}
	watchCtx, stopWatch := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for tick := time.NewTicker(250 * time.Millisecond); watchCtx.Err() == nil; <-tick.C {
			watch()
		}
	}()

	var stalls, returns []time.Time
	for i := 0; i < 10; i++ {
		time.Sleep(5 * time.Second)
		stalls = append(stalls, time.Now())
		proxy.stall()
		time.Sleep(7 * time.Second)
		returns = append(returns, time.Now())
		proxy.resume()
	}
	// After the last return, wait until the server holds only the sampling
	// session (60 s at most).
	deadline := time.Now().Add(70 * time.Second)
	for time.Now().Before(deadline) {
		sess := l.link.session()
		if sess != nil && watch() == 1 {
			mu.Lock()
			_, ok := lives[sess.ID]
			mu.Unlock()
			if ok {
				break
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	stopWatch()
	<-watched
	final := l.link.session()

	mu.Lock()
	defer mu.Unlock()
	t.Logf("most sessions of the monitor the server held at once: %d (%d sessions in all)", most, len(lives))
	if most > maxOwnSessions {
		t.Errorf("the server held %d of the monitor's sessions at once, want at most %d", most, maxOwnSessions)
	}
	// Each session the link cut at a stall must be gone within 60 s of the
	// link's return after that stall.
	var clear []time.Duration
	for id, lf := range lives {
		if final != nil && id == final.ID {
			continue
		}
		k := sort.Search(len(stalls), func(k int) bool { return !stalls[k].Before(lf.first) })
		if k == len(stalls) || stalls[k].After(lf.last) {
			continue // ended before any stall cut it: closed by the monitor
		}
		took := lf.last.Sub(returns[k])
		clear = append(clear, took)
		if took > 60*time.Second {
			t.Errorf("session %d, cut at stall %d, was still on the server %v after the link returned", id, k+1, took.Round(time.Second))
		}
	}
	sort.Slice(clear, func(i, j int) bool { return clear[i] < clear[j] })
	t.Logf("sessions cut by a stall: %d; gone after the link's return (negative: during the stall): %v", len(clear), clear)
	if len(clear) == 0 {
		t.Error("no session was cut by a stall: the proxy did not stall the monitor")
	}
}

func splitHostPort(t *testing.T, addr string) (string, int) {
	t.Helper()
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return h, port
}
