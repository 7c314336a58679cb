package busynormal

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// Schedule is how long the normal runs before the first fault, how long
// each fault lasts and how long the server recovers after each.
type Schedule struct {
	Normal, Fault, Recovery time.Duration
	// Quiet is a second stretch of normal after the first fault's recovery
	// (0: none): a long normal judged after a short first one, so that a
	// capture of the start holds the warm-up and one fault and stays small.
	Quiet time.Duration
}

// Span is how long a run of n faults on this schedule lasts.
func (s Schedule) Span(n int) time.Duration {
	return s.Normal + s.Quiet + time.Duration(n)*(s.Fault+s.Recovery)
}

// Stretch is a span of busy normal.
type Stretch struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// settle is left out of every measured window's start: sysbench's first
// seconds, and a fault's ramp (the convoy's queue building).
const settle = 20 * time.Second

// Timeline is what ran when: the replays judge a recording against it.
type Timeline struct {
	// Began is when the busy normal started; the first fault begins at
	// NormalUntil.
	Began       time.Time `json:"began"`
	NormalUntil time.Time `json:"normal_until"`
	Ended       time.Time `json:"ended"`
	Busy        Busy      `json:"busy"`
	// Normal is the busy normal measured by the probe (after settle).
	Normal Effect `json:"normal"`
	// Quiet is the normal after the first fault (Schedule.Quiet), and
	// QuietNormal the probe's measure of it: the normal the later faults
	// are felt against (pt-stalk, when it runs, runs only through the
	// first normal, and its own reads are part of that one).
	Quiet       []Stretch `json:"quiet,omitempty"`
	QuietNormal *Effect   `json:"quiet_normal,omitempty"`
	// Throttle is how the network fault slowed the clients' link.
	Throttle   string      `json:"throttle,omitempty"`
	Injections []Injection `json:"injections"`
}

// Injection is one fault as it ran.
type Injection struct {
	Fault   string    `json:"fault"`
	Cause   string    `json:"cause"`
	Began   time.Time `json:"began"`
	Ended   time.Time `json:"ended"`
	Skipped string    `json:"skipped,omitempty"`
	// During is the fault measured by the probe (after its first 5 s).
	During Effect `json:"during"`
}

// Run keeps the busy normal for sched.Normal, then injects each fault in
// turn with sched.Recovery after it, failing t when a fault cannot be
// injected or the server did not feel it. The faults run in the heavy-test
// slot (testdb.HeavyPart); the normal goes on while Run waits for it.
func (b *Bed) Run(t testing.TB, sched Schedule, faults []Fault) *Timeline {
	t.Helper()
	tl := &Timeline{Began: b.Began, Busy: b.Busy}
	if b.Link != nil {
		tl.Throttle = b.Link.Throttle
	}
	sleep(b.ctx, time.Until(b.Began.Add(sched.Normal)))
	tl.NormalUntil = time.Now()
	var ok bool
	if tl.Normal, ok = b.Probe.Window(b.Began.Add(settle), tl.NormalUntil); !ok {
		t.Fatal("busynormal: the probe read nothing over the normal")
	}
	t.Logf("busy normal (%s after %s of settling): %s", tl.NormalUntil.Sub(b.Began.Add(settle)).Round(time.Second), settle, tl.Normal)
	// The faults load the machine; the normal runs at an application's
	// pace. A test that holds the heavy slot throughout passes through.
	testdb.HeavyPart(t, func() {
		for i, f := range faults {
			tl.Injections = append(tl.Injections, b.inject(t, f, sched, tl.normalBefore(time.Now())))
			if i == 0 && sched.Quiet > 0 {
				q := Stretch{From: time.Now()}
				sleep(b.ctx, sched.Quiet)
				q.To = time.Now()
				tl.Quiet = append(tl.Quiet, q)
				if e, ok := b.Probe.Window(q.From, q.To); ok {
					tl.QuietNormal = &e
					t.Logf("quiet normal (%s): %s", q.To.Sub(q.From).Round(time.Second), e)
				}
			}
		}
	})
	tl.Ended = time.Now()
	return tl
}

// normalBefore is the normal a fault starting at is felt against: the
// quiet stretch's when one ended before it, else the first.
func (tl *Timeline) normalBefore(at time.Time) Effect {
	if tl.QuietNormal != nil && len(tl.Quiet) > 0 && !at.Before(tl.Quiet[0].To) {
		return *tl.QuietNormal
	}
	return tl.Normal
}

// inject runs one fault, its recovery, and measures it.
func (b *Bed) inject(t testing.TB, f Fault, sched Schedule, normal Effect) Injection {
	t.Helper()
	in := Injection{Fault: f.Name, Cause: f.Cause}
	if f.Unavailable != nil {
		if in.Skipped = f.Unavailable(b); in.Skipped != "" {
			t.Logf("%s: skipped: %s", f.Name, in.Skipped)
			return in
		}
	}
	in.Began = time.Now()
	ctx, cancel := context.WithTimeout(b.ctx, sched.Fault)
	err := f.Inject(ctx, b)
	cancel()
	in.Ended = time.Now()
	if err != nil {
		t.Errorf("%s: %v", f.Name, err)
	}
	if f.Recover != nil {
		if err := f.Recover(b); err != nil {
			t.Errorf("%s: recovery: %v", f.Name, err)
		}
	}
	during, ok := b.Probe.Window(in.Began.Add(5*time.Second), in.Ended)
	during.Hog, b.hogShare = b.hogShare, 0
	in.During = during
	switch {
	case !ok:
		t.Errorf("%s: the probe read nothing during the fault", f.Name)
	case f.Felt(normal, during) != "":
		t.Errorf("%s: the server did not feel the fault: %s\n  during: %s", f.Name, f.Felt(normal, during), during)
	default:
		t.Logf("%s (%s, %s): %s", f.Name, f.Cause, in.Ended.Sub(in.Began).Round(time.Second), during)
	}
	sleep(b.ctx, time.Until(in.Ended.Add(sched.Recovery)))
	return in
}

// Save writes the timeline as JSON.
func (tl *Timeline) Save(path string) error {
	b, err := json.MarshalIndent(tl, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// LoadTimeline reads a timeline Save wrote.
func LoadTimeline(path string) (*Timeline, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tl Timeline
	return &tl, json.Unmarshal(b, &tl)
}

// Within is the timeline cut to a capture from..to: its normal from the
// capture's start, and the faults it holds with at least NameWithin after
// each one's end.
func (tl *Timeline) Within(from, to time.Time) *Timeline {
	out := *tl
	out.Began = from
	out.Injections, out.Quiet = nil, nil
	for _, q := range tl.Quiet {
		if !q.From.Before(from) && !q.To.After(to) {
			out.Quiet = append(out.Quiet, q)
		}
	}
	for _, in := range tl.Injections {
		if !in.Began.Before(from) && !in.Ended.Add(NameWithin).After(to) {
			out.Injections = append(out.Injections, in)
		}
	}
	if len(out.Injections) > 0 {
		out.Ended = to
	}
	return &out
}
