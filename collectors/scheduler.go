package collectors

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// scheduled is one database collector with its own period.
type scheduled struct {
	c Collector
	// every is the collector's period; 0 runs it every tick.
	every   time.Duration
	lastRun time.Time
	// failed is the last run's error, shown until the next run: a failing
	// source keeps its period, so a refused 5-s source is asked every 5 s,
	// not every tick.
	failed string
}

// adaptivePeriod is implemented by collectors whose useful period depends on
// what they last read, e.g. replica status on a server that is no replica.
type adaptivePeriod interface {
	period(configured time.Duration) time.Duration
}

// due reports whether the collector should run at now. Half a tick of slack
// keeps a 5 s period from slipping to 6 s when ticks jitter.
func (e *scheduled) due(now time.Time, tick time.Duration) bool {
	every := e.every
	if a, ok := e.c.(adaptivePeriod); ok {
		every = a.period(every)
	}
	return e.lastRun.IsZero() || now.Sub(e.lastRun) >= every-tick/2
}

// dbRun is the outcome of one tick's database collectors.
type dbRun struct {
	// answered is set once the server replied to anything this tick.
	answered bool
	// lost is the error that made the connection unusable, if any.
	lost error
	// timedOut names the collector whose statement hit the deadline.
	timedOut snapshot.CollectorName
	// tending is set when the session was lost after the collectors, in
	// its housekeeping (killing left-over sessions, re-probing).
	tending bool
}

// runDB runs the due collectors in order on the sampling connection. After a
// lost connection the rest are skipped: on a stuck server every further
// statement would only wait for the same deadline.
func runDB(ctx context.Context, entries []*scheduled, prev, s *snapshot.Snapshot, tick time.Duration) dbRun {
	var run dbRun
	for _, e := range entries {
		name := e.c.Name()
		if run.lost != nil {
			markSkipped(e, prev, s, fmt.Sprintf("skipped: %v", describeLost(run)))
			continue
		}
		if !e.due(s.Time, tick) {
			carryForward(e, prev, s)
			if e.failed != "" {
				st := s.Collectors[name]
				st.Stale, st.Error = true, e.failed
				s.Collectors[name] = st
			}
			continue
		}
		start := time.Now()
		err := e.c.Collect(ctx, s)
		st := s.Collectors[name]
		st.Latency = time.Since(start)
		e.lastRun, e.failed = s.Time, ""
		if err == nil {
			run.answered = true
		} else {
			st.Stale, st.Error = true, collectorError(err, st.Latency)
			e.failed = st.Error
			if connectionLost(err) {
				run.lost = err
				if ctx.Err() != nil {
					run.timedOut = name
				}
			} else {
				run.answered = true // the server refused one statement, so it is alive
			}
		}
		s.Collectors[name] = st
	}
	return run
}

// carryForward copies a not-due collector's previous part; it is current as
// far as its period goes, so not stale.
func carryForward(e *scheduled, prev, s *snapshot.Snapshot) {
	if c, ok := e.c.(carrier); ok {
		c.carry(prev, s)
	}
	var st snapshot.CollectorState
	if prev != nil {
		st.Unavailable = prev.Collectors[e.c.Name()].Unavailable
	}
	s.Collectors[e.c.Name()] = st
}

// markSkipped records a collector that could not run this tick.
func markSkipped(e *scheduled, prev, s *snapshot.Snapshot, why string) {
	if c, ok := e.c.(skipCarrier); ok {
		c.carrySkipped(prev, s)
	}
	st := s.Collectors[e.c.Name()]
	st.Stale, st.Error = true, why
	s.Collectors[e.c.Name()] = st
}

func describeLost(run dbRun) string {
	if run.tending {
		return "connection lost after sampling: " + firstLine(run.lost.Error())
	}
	if run.timedOut != "" {
		return "no answer to " + string(run.timedOut) + " within the tick"
	}
	return "connection lost: " + firstLine(run.lost.Error())
}

const timedOutPrefix = "timed out after "

// collectorError is the one-line error shown for a failed collector.
func collectorError(err error, took time.Duration) string {
	if isDeadline(err) {
		return fmt.Sprintf("%s%v", timedOutPrefix, took.Round(time.Millisecond))
	}
	return firstLine(err.Error())
}

// firstLine keeps a status line to one line.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
