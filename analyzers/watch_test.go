package analyzers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// The one harness of the integration proofs: a throwaway server sampled by
// the real collectors every second and judged by the real engine, for as
// long and with what the options say.
//
//	frames := watch(t, srv, within(90*time.Second), until(stop)).frames
//	_, got, after := watch(t, srv, within(60*time.Second), judged(noWarmup(DefaultConfig())),
//		load(w, start), onset(idFinding(IDFoo, snapshot.Warning))).result()
//	frames := watch(t, srv, judged(heavyTwin()), load(w, start), runFor(20*time.Second)).frames

// watchPlan is what the options set.
type watchPlan struct {
	limit   time.Duration        // the longest watch; within, or runFor's run plus warmSlack
	cfg     Config               // the engine's thresholds; DefaultConfig unless judged
	host    collectors.Collector // the host collector (per-thread CPU from /proc); none by default
	until   func(*snapshot.Frame) bool
	w       *workload // with start: begun at the first frame past the warm-up
	start   func()
	found   func(*snapshot.Frame) *snapshot.Finding
	mayMiss bool          // a watch for found that ends without it is no failure
	run     time.Duration // the workload's run: the watch ends once it ran this long
}

// watchOption sets one thing of a watch.
type watchOption func(*watchPlan)

// warmSlack is what runFor allows beyond the run for the server's warm-up
// and a loaded machine's late frames.
const warmSlack = 40 * time.Second

// within ends the watch after d at the latest.
func within(d time.Duration) watchOption { return func(p *watchPlan) { p.limit = d } }

// judged judges the frames with thresholds c.
func judged(c Config) watchOption { return func(p *watchPlan) { p.cfg = c } }

// withHost samples the host with h as well (nil: none).
func withHost(h collectors.Collector) watchOption { return func(p *watchPlan) { p.host = h } }

// until ends the watch at the first frame stop is true of.
func until(stop func(*snapshot.Frame) bool) watchOption {
	return func(p *watchPlan) { p.until = stop }
}

// load calls start once the monitor samples a server past its warm-up (so
// the time measured is the rule's, not a fresh server's); the other stop
// conditions are asked from then on.
func load(w *workload, start func()) watchOption {
	return func(p *watchPlan) { p.w, p.start = w, start }
}

// onset ends the watch at the first frame found returns a finding for,
// failing the test when none came.
func onset(found func(*snapshot.Frame) *snapshot.Finding) watchOption {
	return func(p *watchPlan) { p.found = found }
}

// onsetIfAny is onset without the failure: the test judges a miss itself.
func onsetIfAny(found func(*snapshot.Frame) *snapshot.Finding) watchOption {
	return func(p *watchPlan) { p.found, p.mayMiss = found, true }
}

// runFor, with load, ends the watch once the workload has run d (within
// d plus warmSlack), failing the test when it ran less.
func runFor(d time.Duration) watchOption {
	return func(p *watchPlan) { p.run, p.limit = d, d+warmSlack }
}

// watched is what a watch saw: its frames, and with onset the finding and
// how long after the workload's start it stood.
type watched struct {
	frames []*snapshot.Frame
	got    *snapshot.Finding
	after  time.Duration
}

// result is the three at once.
func (r watched) result() ([]*snapshot.Frame, *snapshot.Finding, time.Duration) {
	return r.frames, r.got, r.after
}

// watch samples srv every second as opts say and returns what it saw.
func watch(t *testing.T, srv *testdb.Server, opts ...watchOption) watched {
	t.Helper()
	p := watchPlan{cfg: DefaultConfig()}
	for _, o := range opts {
		o(&p)
	}
	if p.limit == 0 {
		t.Fatal("watch: no within nor runFor")
	}
	var r watched
	r.frames = sample(t, srv, p, func(f *snapshot.Frame) bool {
		if p.w != nil && !p.w.startWhenWarm(f, p.cfg, p.start) {
			return false
		}
		stop := false
		if p.found != nil {
			r.got, r.after = p.found(f), f.Snapshot.Time.Sub(p.w.began)
			stop = r.got != nil
		}
		if p.run > 0 && time.Since(p.w.began) >= p.run {
			stop = true
		}
		if p.until != nil && p.until(f) {
			stop = true
		}
		return stop
	})
	if p.run > 0 && (p.w.began.IsZero() || time.Since(p.w.began) < p.run) {
		t.Fatalf("the workload ran %s of %s (%d frames)", time.Since(p.w.began).Round(time.Second), p.run, len(r.frames))
	}
	if p.found != nil {
		if r.got == nil {
			if !p.mayMiss {
				t.Fatalf("no finding in %d frames (%s)", len(r.frames), time.Since(p.w.began).Round(time.Second))
			}
		} else {
			t.Logf("%s/%s stood %.1f s after the workload started: %s\n%s\n%s", r.got.ID, r.got.Severity,
				r.after.Seconds(), r.got.Title, strings.Join(r.got.Evidence, "\n"), r.got.Advice)
		}
	}
	return r
}

// sample reads srv every second until stop is true or p.limit passes.
func sample(t *testing.T, srv *testdb.Server, p watchPlan, stop func(*snapshot.Frame) bool) []*snapshot.Frame {
	t.Helper()
	opts := connopt.Options{Socket: srv.Socket, User: "root", PasswordSet: true}
	cfg, err := opts.Config()
	if err != nil {
		t.Fatal(err)
	}
	live, err := collectors.NewLive(collectors.LiveOptions{Config: cfg, Interval: time.Second, Host: p.host})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	b := pipeline.NewBuilder("LIVE", NewEngine(p.cfg))
	var out []*snapshot.Frame
	ctx, cancel := context.WithTimeout(context.Background(), p.limit)
	defer cancel()
	for ctx.Err() == nil {
		s, err := live.Next(ctx)
		if err != nil {
			break
		}
		f := b.Add(s)
		out = append(out, f)
		logFrame(t, f)
		if stop(f) {
			break
		}
	}
	return out
}
