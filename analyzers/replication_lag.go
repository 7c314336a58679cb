package analyzers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDReplicationLag names the findings of replication_lag: a contract (the
// README's findings table), stable, never reused.
const IDReplicationLag = "replication_lag"

// replicationLagRule is replication_lag in the rules table (rule.go); it
// keeps Config.DefaultPersistence.
var replicationLagRule = rule{id: IDReplicationLag, check: checkReplicationLag}

// A replication channel behind its source (REPL-01: warn > 30 s APA/MX,
// critical > 300 s PMM-A), judged per channel: on a replica of several
// sources one lagging channel must be named, not averaged away. SQL_Delay is
// subtracted: a delayed replica is late on purpose. A stopped thread is
// replication_stopped's (Seconds_Behind is NULL then).
//
// A channel catching up is routine, not an incident: a replica that a DBA or
// a job paused (STOP SLAVE SQL_THREAD, mariabackup --safe-slave-backup,
// mariadb-dump --dump-slave) is behind by the pause once it resumes. While
// its lag falls fast enough to be gone within ReplicaCatchUpETA (MX's
// predict_linear over 2 minutes), or in the first seconds after a resume the
// monitor saw, before the fall can be measured, it is named at info with the
// rate and the ETA. A lag that grows, holds, or falls too slowly while the
// SQL thread runs keeps its warning or critical.
func checkReplicationLag(w *window, c *Config) verdict {
	chans, v := channelsOf(w)
	if v != nil {
		return *v
	}
	var late []lateChannel
	for _, ch := range chans {
		if lag, ok := ch.Lag(); ok && time.Duration(lag)*time.Second > c.ReplicaLagWarn {
			l := lateChannel{ch: ch, lag: lag, cu: catchUpOf(w, ch, lag, c)}
			l.sev = l.severity(c)
			late = append(late, l)
		}
	}
	if len(late) == 0 {
		return quiet()
	}
	// The most severe channel first, then the furthest behind.
	slices.SortStableFunc(late, func(a, b lateChannel) int {
		if a.sev != b.sev {
			return int(b.sev) - int(a.sev)
		}
		return int(b.lag - a.lag)
	})
	worst := late[0]
	appliers := applierThreads(w.snap.Processlist)
	var ev []string
	var threads []int64
	var scan applierScan
	for _, l := range late {
		ev = append(ev, l.line(w))
		if p, ok := applyingThread(appliers, l.ch, len(chans)); ok {
			ev = append(ev, fmt.Sprintf("  its SQL thread %d (%s) applies: %s", p.ID, p.State, clip(oneLine(p.Info), maxSQLChars)))
			threads = append(threads, p.ID)
			if s, ok := applierSearch(w, p); ok {
				ev = append(ev, s.line)
				if scan.noKey == "" {
					scan = s
				}
			}
		} else if l.ch.SQLState != "" {
			ev = append(ev, "  its SQL thread: "+l.ch.SQLState)
		}
	}
	title := worst.title(w)
	if len(late) > 1 {
		title += fmt.Sprintf(" (%d channels behind)", len(late))
	}
	advice := replicationLagAdvice
	switch {
	case worst.sev == snapshot.Info:
		advice = replicationCatchUpAdvice(w)
	case scan.noKey != "":
		advice = scan.advice
		title += fmt.Sprintf(": %s has no primary key", scan.noKey)
	}
	return raise(worst.sev, title, ev, advice, threads)
}

const replicationLagAdvice = "Look at what the SQL thread applies: big transactions, tables without a primary key " +
	"(row events then scan the table), a lock held on the replica, or too few parallel workers."

func replicationCatchUpAdvice(w *window) string {
	return "Nothing to do while it catches up: a replica that was paused (" + w.version().Replica().Stop +
		", a backup's --safe-slave-backup or --dump-slave) is behind by the pause. Keep reads that need fresh data " +
		"off it until it is in sync; if the fall slows or turns into growth, look at what the SQL thread applies."
}

type lateChannel struct {
	ch  snapshot.Channel
	lag int64
	cu  catchUp
	sev snapshot.Severity
}

// severity is info while the channel catches up within ReplicaCatchUpETA
// (or has just resumed), else warning, critical past ReplicaLagCrit.
func (l lateChannel) severity(c *Config) snapshot.Severity {
	switch {
	case l.cu.routine(c):
		return snapshot.Info
	case l.dur() > c.ReplicaLagCrit:
		return snapshot.Critical
	}
	return snapshot.Warning
}

func (l lateChannel) title(w *window) string {
	switch {
	case l.cu.falling && l.cu.measured:
		return fmt.Sprintf("%s catching up: %s behind, shrinking at %s s/s, ETA %s", l.ch.Label(),
			fmtDuration(l.dur()), fmtRatePerSec(l.cu.rate), fmtDuration(l.cu.eta))
	case l.cu.falling:
		return fmt.Sprintf("%s catching up after a pause: %s behind, its SQL thread resumed %s ago", l.ch.Label(),
			fmtDuration(l.dur()), fmtDuration(l.cu.resumedAgo))
	case l.cu.starting:
		return fmt.Sprintf("%s resumed %s ago after a pause: %s behind, none shed yet", l.ch.Label(),
			fmtDuration(l.cu.resumedAgo), fmtDuration(l.dur()))
	}
	return fmt.Sprintf("%s %s behind its source, %s", l.ch.Label(), fmtDuration(l.dur()), l.trend(w))
}

func (l lateChannel) dur() time.Duration { return time.Duration(l.lag) * time.Second }

func (l lateChannel) line(w *window) string {
	s := fmt.Sprintf("%s%s: %s behind", l.ch.Label(), sourceOf(l.ch), fmtDuration(l.dur()))
	if l.ch.Delay > 0 {
		s += fmt.Sprintf(" beyond its SQL_Delay of %d s", l.ch.Delay)
	}
	switch {
	case l.cu.falling && l.cu.measured:
		s += fmt.Sprintf(", catching up at %s s/s over the last %s, ETA %s", fmtRatePerSec(l.cu.rate),
			fmtDuration(l.cu.span), fmtDuration(l.cu.eta))
	case l.cu.falling:
		s += ", the SQL thread resumed " + fmtDuration(l.cu.resumedAgo) + " ago; the rate is not measured yet"
	case l.cu.starting:
		s += ", none shed in the " + fmtDuration(l.cu.span.Round(time.Second)) + " measured since the resume: " +
			"a warning if none is shed within " + fmtDuration(w.cfg.ReplicaResumeGrace) + " of it"
	default:
		s += ", " + l.trend(w)
	}
	if l.cu.resumed && l.cu.measured {
		s += fmt.Sprintf(" (SQL thread resumed %s ago)", fmtDuration(l.cu.resumedAgo))
	}
	if l.ch.GTIDApplied != "" {
		s += "; applied " + l.ch.GTIDApplied
		if l.ch.GTIDFetched != "" && l.ch.GTIDFetched != l.ch.GTIDApplied {
			s += ", fetched " + l.ch.GTIDFetched
		}
	}
	return s
}

// trendWindow is how far back the lag is compared, to tell a replica
// falling further behind from one catching up.
const trendWindow = 30 * time.Second

// trend compares the lag with the same channel's about trendWindow ago.
func (l lateChannel) trend(w *window) string {
	then, at, ok := earlierLag(w, l.ch.Name)
	if !ok {
		return "trend not known yet"
	}
	secs := w.snap.Time.Sub(at).Seconds()
	d := float64(l.lag-then) / secs
	switch {
	case d > 0.2:
		return fmt.Sprintf("growing (+%d s in %.0f s)", l.lag-then, secs)
	case d < -0.2:
		return fmt.Sprintf("catching up (%d s in %.0f s)", l.lag-then, secs)
	}
	return fmt.Sprintf("steady over %.0f s", secs)
}

// earlierLag is the channel's lag in the oldest frame within trendWindow
// that knows it (at least 3 s before now).
func earlierLag(w *window, name string) (int64, time.Time, bool) {
	now := w.snap.Time
	for _, f := range w.frames {
		s := f.Snapshot
		age := now.Sub(s.Time)
		if age > trendWindow || age < 3*time.Second {
			continue
		}
		for _, ch := range s.Channels() {
			if ch.Name == name {
				if lag, ok := ch.Lag(); ok {
					return lag, s.Time, true
				}
			}
		}
	}
	return 0, time.Time{}, false
}

// oneLine folds a statement's line breaks so evidence stays one line a row.
func oneLine(q string) string { return strings.Join(strings.Fields(q), " ") }

// catchUp is how a late channel's lag moved over the trend window, from the
// frames since its SQL thread last resumed.
type catchUp struct {
	// resumed: the window shows the SQL thread not running (or the lag
	// unknown) within trendWindow, and running since resumedAgo.
	resumed    bool
	resumedAgo time.Duration
	// measured: the fall (or growth) is measured over span, at rate seconds
	// of lag shed a second (negative when it grows); eta is lag / rate.
	measured bool
	span     time.Duration
	rate     float64
	eta      time.Duration
	// falling: the lag is being caught up (measured, or just resumed and
	// not above the lag at the resume).
	falling bool
	// starting: resumed within ReplicaResumeGrace, measured, and shedding
	// nothing yet without growing past the lag the resume found (more than
	// resumeJitter): a SQL thread ramping up on a starved host (seen in the
	// full suite: 57 s behind, held for 11 s after the resume, then falling).
	starting bool
}

// routine: caught up within ReplicaCatchUpETA at the measured rate, or just
// resumed: not yet measurable, or falling within ReplicaResumeGrace of it.
func (c catchUp) routine(cfg *Config) bool {
	if c.starting {
		return true
	}
	if !c.falling {
		return false
	}
	if !c.measured || c.resumed && c.resumedAgo < cfg.ReplicaResumeGrace {
		return true
	}
	return c.eta <= cfg.ReplicaCatchUpETA
}

// resumeJitter is how far the lag may stand above the lag a resume found
// while the catch-up is too young to measure: the clock runs on while the SQL
// thread starts on its first event, so Seconds_Behind_Master can tick up a
// second or two first (a replica resumed under a loaded host in the full
// suite: 55, 56, 56, 56, then 51, 47, ... in sync 15 s later). A lag that
// keeps growing passes it within seconds.
const resumeJitter = 2

type lagPoint struct {
	at  time.Time
	lag int64
}

// catchUpOf measures ch's lag over the frames within trendWindow since its
// SQL thread last resumed. The rate is the least-squares slope of the lag:
// Seconds_Behind jumps as the SQL thread moves from one event to the next,
// and one end point can sit on a jump.
func catchUpOf(w *window, ch snapshot.Channel, lag int64, c *Config) catchUp {
	now := w.snap.Time
	var cu catchUp
	pts := []lagPoint{{now, lag}}
	for i := len(w.frames) - 2; i >= 0; i-- {
		s := w.frames[i].Snapshot
		if now.Sub(s.Time) > trendWindow {
			break
		}
		then, found := channelNamed(s, ch.Name)
		if !found {
			break // the collector had no answer then: neither a resume nor a lag
		}
		l, ok := then.Lag()
		if !then.SQLOK() || !ok {
			cu.resumed = true
			cu.resumedAgo = now.Sub(pts[len(pts)-1].at)
			break
		}
		pts = append(pts, lagPoint{s.Time, l})
	}
	first := pts[len(pts)-1]
	cu.span = now.Sub(first.at)
	need := 2 * c.ReplicaCatchUpMinSpan
	if cu.resumed {
		need = c.ReplicaCatchUpMinSpan
	}
	if cu.span+time.Second/4 < need {
		// Too soon to measure: after a resume the pause explains the lag,
		// as long as it is not above the lag the resume found by more than
		// resumeJitter.
		cu.falling = cu.resumed && lag <= first.lag+resumeJitter
		return cu
	}
	cu.measured = true
	cu.rate = -lagSlope(pts)
	if cu.rate > 0 {
		cu.falling = true
		cu.eta = time.Duration(float64(lag) / cu.rate * float64(time.Second))
	} else {
		cu.starting = cu.resumed && cu.resumedAgo < c.ReplicaResumeGrace && lag <= first.lag+resumeJitter
	}
	return cu
}

// lagSlope is the least-squares slope of the lag in seconds a second.
func lagSlope(pts []lagPoint) float64 {
	xs, ys := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		xs[i], ys[i] = p.at.Sub(pts[0].at).Seconds(), float64(p.lag)
	}
	return slope(xs, ys)
}

// channelNamed is s's channel called name.
func channelNamed(s *snapshot.Snapshot, name string) (snapshot.Channel, bool) {
	for _, ch := range s.Channels() {
		if ch.Name == name {
			return ch, true
		}
	}
	return snapshot.Channel{}, false
}

// fmtRatePerSec is a rate with one decimal under 10, none above.
func fmtRatePerSec(r float64) string {
	if r < 10 {
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.0f", r)
}
