package analyzers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A replication channel behind its source (REPL-01: warn > 30 s APA/MX,
// critical > 300 s PMM-A), judged per channel: on a replica of several
// sources one lagging channel must be named, not averaged away. SQL_Delay is
// subtracted: a delayed replica is late on purpose. A stopped thread is
// replication_stopped's (Seconds_Behind is NULL then).
func checkReplicationLag(w *window, c *Config) verdict {
	chans, v := channelsOf(w)
	if v != nil {
		return *v
	}
	var late []lateChannel
	for _, ch := range chans {
		if lag, ok := ch.Lag(); ok && time.Duration(lag)*time.Second > c.ReplicaLagWarn {
			late = append(late, lateChannel{ch, lag})
		}
	}
	if len(late) == 0 {
		return quiet()
	}
	slices.SortStableFunc(late, func(a, b lateChannel) int { return int(b.lag - a.lag) })
	worst := late[0]
	sev := snapshot.Warning
	if time.Duration(worst.lag)*time.Second > c.ReplicaLagCrit {
		sev = snapshot.Critical
	}
	appliers := applierThreads(w.snap.Processlist)
	var ev []string
	var threads []int64
	for _, l := range late {
		ev = append(ev, l.line(w))
		if p, ok := applyingThread(appliers, l.ch, len(chans)); ok {
			ev = append(ev, fmt.Sprintf("  its SQL thread %d (%s) applies: %s", p.ID, p.State, clip(oneLine(p.Info), maxSQLChars)))
			threads = append(threads, p.ID)
		} else if l.ch.SQLState != "" {
			ev = append(ev, "  its SQL thread: "+l.ch.SQLState)
		}
	}
	title := fmt.Sprintf("%s %s behind its source, %s", worst.ch.Label(), fmtDuration(worst.dur()), worst.trend(w))
	if len(late) > 1 {
		title += fmt.Sprintf(" (%d channels behind)", len(late))
	}
	return raise(sev, title, ev, replicationLagAdvice, threads)
}

const replicationLagAdvice = "Look at what the SQL thread applies: big transactions, tables without a primary key " +
	"(row events then scan the table), a lock held on the replica, or too few parallel workers."

type lateChannel struct {
	ch  snapshot.Channel
	lag int64
}

func (l lateChannel) dur() time.Duration { return time.Duration(l.lag) * time.Second }

func (l lateChannel) line(w *window) string {
	s := fmt.Sprintf("%s%s: %s behind", l.ch.Label(), sourceOf(l.ch), fmtDuration(l.dur()))
	if l.ch.Delay > 0 {
		s += fmt.Sprintf(" beyond its SQL_Delay of %d s", l.ch.Delay)
	}
	s += ", " + l.trend(w)
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
