package analyzers

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Helpers shared by the replication rules (replication_lag,
// replication_stopped): which channels a snapshot has, and which
// processlist thread applies a channel's events.

// channelsOf returns the current channels, or the verdict to give when there
// are none: not applicable on a server that is no replica, quiet while the
// collector failed this tick (the channels are not known to be gone).
func channelsOf(w *window) ([]snapshot.Channel, *verdict) {
	if r := w.unavailable(snapshot.CollectorReplica); r != "" {
		v := notApplicable(r)
		return nil, &v
	}
	chans := w.snap.Channels()
	if len(chans) > 0 {
		return chans, nil
	}
	v := notApplicable("not a replica")
	if w.failedThisTick(snapshot.CollectorReplica) {
		v = quiet()
	}
	return nil, &v
}

// sourceOf is " (from host:port)" or "".
func sourceOf(ch snapshot.Channel) string {
	if ch.Source == "" {
		return ""
	}
	return " (from " + ch.Source + ")"
}

// applierThreads are the processlist rows of replication SQL threads and
// parallel workers that are executing something.
func applierThreads(ps []snapshot.Process) []snapshot.Process {
	var out []snapshot.Process
	for _, p := range ps {
		if !isApplier(p) || strings.TrimSpace(p.Info) == "" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// isApplier: MariaDB names the commands Slave_SQL and Slave_worker; MySQL
// (and older MariaDB) run them as "system user" with a Query/Connect command.
func isApplier(p snapshot.Process) bool {
	switch strings.ToLower(p.Command) {
	case "slave_sql", "slave_worker":
		return true
	case "binlog dump", "binlog dump gtid", "slave_io", "daemon":
		return false
	}
	return p.User == "system user"
}

// applyingThread finds the thread applying ch's events. The processlist does
// not name the channel, so with several channels the thread must show the
// channel's SQL state, and of those the one whose Time (for an applier, the
// age of the event it applies) is closest to the channel's lag.
func applyingThread(appliers []snapshot.Process, ch snapshot.Channel, channels int) (snapshot.Process, bool) {
	var best snapshot.Process
	found := false
	bestDiff := int64(-1)
	for _, p := range appliers {
		if channels > 1 && (ch.SQLState == "" || !strings.EqualFold(p.State, ch.SQLState)) {
			continue
		}
		diff := p.TimeMS/1000 - ch.Behind
		if diff < 0 {
			diff = -diff
		}
		if !found || diff < bestDiff {
			best, bestDiff, found = p, diff, true
		}
	}
	return best, found
}
