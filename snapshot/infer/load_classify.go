package infer

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// sessionSignals is what the monitor knows of a session beyond its
// processlist row, all of it already in the Snapshot and its Rates: nothing
// here costs the server a statement.
type sessionSignals struct {
	// Lock is the lock the lock sources say the session waits for ("" none).
	Lock snapshot.LockKind
	// Measured is set when the thread's CPU and I/O over the last interval
	// are known (the server runs on this machine); CPU and IOBps are then
	// its percent of a core and its bytes per second to and from storage.
	Measured bool
	CPU      float64
	IOBps    float64
	// Runnable: the thread was on a core or in the run queue when read.
	Runnable bool
}

// Thresholds of a measured thread, as shares of the interval it ran in.
const (
	// busyCPU: a thread on a core half the interval or more is on CPU,
	// whatever else it does.
	busyCPU = 50
	// idleCPU and waitedMS: a thread in a running state that used almost
	// no CPU over a whole interval, has been in its state for longer than
	// two intervals and is not runnable is waiting for something the server
	// does not name (a row lock the lock sources missed, an InnoDB queue, a
	// mutex). A runnable one is waiting for a core: CPU, as load by wait
	// class counts it (Performance Insights' "CPU" is on it or queued).
	idleCPU  = 10
	waitedMS = 2000
	// busyIOBps is what reaching storage looks like for a session: 32 16 KB
	// pages a second. Reads served by the page cache are CPU, not I/O.
	busyIOBps = 512 << 10
)

// Classify puts one processlist row in its wait class; active is false for
// an idle session (Sleep, background daemons, replica and dump threads
// waiting for events), which is in no class.
//
// What decides, most precise first: the lock the lock sources say it waits
// for; what a replication or dump thread is; the state's name; then, for a
// session in a running state, its measured CPU and I/O. Without measures
// (a remote server, an imported capture) a running session counts as CPU,
// as the state says it runs.
func Classify(p *snapshot.Process, sig sessionSignals) (class snapshot.WaitClass, active bool) {
	return classify(p, sig, judgeState(p.State))
}

func classify(p *snapshot.Process, sig sessionSignals, st stateVerdict) (snapshot.WaitClass, bool) {
	switch p.Command {
	case "Sleep", "Daemon":
		return snapshot.ClassOther, false
	case "Binlog Dump", "Binlog Dump GTID":
		return snapshot.ClassNetwork, st.sendingBinlog
	case "Killed":
		return snapshot.ClassOther, true
	}
	if c, ok := lockClasses[sig.Lock]; ok {
		return c, true
	}
	if isReplicaThread(p) {
		return snapshot.ClassReplication, !st.replicaIdle
	}
	if st.named {
		return st.class, true
	}
	return runningClass(p, sig), true
}

// stateVerdict is what a processlist state alone says about a session.
type stateVerdict struct {
	class snapshot.WaitClass
	// named: the state names what the session waits for (class).
	named bool
	// replicaIdle: a replica thread in this state has nothing to do.
	replicaIdle bool
	// sendingBinlog: a dump thread in this state is sending events.
	sendingBinlog bool
}

// judgeState reads a state whatever case the server prints it in.
func judgeState(raw string) stateVerdict {
	var buf [64]byte
	s := string(lowerInto(buf[:0], raw))
	v := stateVerdict{replicaIdle: s == "" || replicaIdle[s], sendingBinlog: strings.HasPrefix(s, "sending binlog event")}
	if c, ok := stateClasses[s]; ok {
		v.class, v.named = c, true
	} else if c, ok := statePattern(s); ok {
		v.class, v.named = c, true
	}
	return v
}

// stateMemo remembers the verdict on each state as printed: a processlist
// of thousands of sessions has a few dozen distinct states, so judging each
// once per sample is most of the classification saved.
type stateMemo map[string]stateVerdict

// maxStateMemo bounds the memo; replica states carry row counts and grow it.
const maxStateMemo = 512

func (m *stateMemo) judge(raw string) stateVerdict {
	if v, ok := (*m)[raw]; ok {
		return v
	}
	if *m == nil || len(*m) >= maxStateMemo {
		*m = make(stateMemo, 64)
	}
	v := judgeState(raw)
	(*m)[raw] = v
	return v
}

// runningClass classifies a session whose state says it runs.
func runningClass(p *snapshot.Process, sig sessionSignals) snapshot.WaitClass {
	switch {
	case !sig.Measured || sig.CPU >= busyCPU:
		return snapshot.ClassCPU
	case sig.IOBps >= busyIOBps:
		return snapshot.ClassIO
	case sig.CPU < idleCPU && p.TimeMS >= waitedMS && !sig.Runnable:
		return snapshot.ClassOther
	}
	return snapshot.ClassCPU
}

// isReplicaThread: MariaDB names the replica's commands; MySQL (and older
// MariaDB, and Galera appliers) run them as "system user".
func isReplicaThread(p *snapshot.Process) bool {
	switch p.Command {
	case "Slave_IO", "Slave_SQL", "Slave_worker":
		return true
	}
	return p.User == "system user"
}

var lockClasses = map[snapshot.LockKind]snapshot.WaitClass{
	snapshot.LockRow:        snapshot.ClassRowLock,
	snapshot.LockMetadata:   snapshot.ClassMetadataLock,
	snapshot.LockTable:      snapshot.ClassTableLock,
	snapshot.LockQueryCache: snapshot.ClassQueryCache,
}

// replicaIdle are the states of replica threads with nothing to do.
var replicaIdle = map[string]bool{
	"waiting for master to send event":                         true,
	"waiting for source to send event":                         true,
	"slave has read all relay log; waiting for more updates":   true,
	"replica has read all relay log; waiting for more updates": true,
	"waiting for work from sql thread":                         true,
	"waiting for an event from coordinator":                    true,
	"waiting for the next event in relay log":                  true,
	"wsrep applier idle":                                       true,
	"wsrep aborter idle":                                       true,
	"waiting for master update":                                true,
	"connecting to master":                                     true,
}

// stateClasses names the states (lower case) that say what a session waits
// for, across MySQL 5.1-9.x and MariaDB 10-11.
var stateClasses = map[string]snapshot.WaitClass{
	"waiting for global read lock": snapshot.ClassGlobalLock,
	"waiting for backup lock":      snapshot.ClassGlobalLock,
	"waiting for commit lock":      snapshot.ClassGlobalLock, // FLUSH TABLES WITH READ LOCK held

	"waiting for table level lock": snapshot.ClassTableLock,
	"waiting for table lock":       snapshot.ClassTableLock,
	"locked":                       snapshot.ClassTableLock, // MySQL 5.1
	"table lock":                   snapshot.ClassTableLock,
	"system lock":                  snapshot.ClassTableLock, // external (MyISAM) lock
	"waiting for table flush":      snapshot.ClassTableLock,
	"waiting for tables":           snapshot.ClassTableLock,

	"waiting for handler commit": snapshot.ClassCommit,
	"query end":                  snapshot.ClassCommit, // 5.x: binlog and redo flush
	"commit":                     snapshot.ClassCommit,
	"committing":                 snapshot.ClassCommit,
	"waiting for commit":         snapshot.ClassCommit,
	"waiting for prior transaction to commit": snapshot.ClassCommit,
	"waiting for group commit":                snapshot.ClassCommit,
	"waiting for semi-sync ack from slave":    snapshot.ClassCommit,
	"waiting for semi-sync ack from replica":  snapshot.ClassCommit,
	"waiting for semi-sync reply":             snapshot.ClassCommit,

	"sending to client":               snapshot.ClassNetwork,
	"writing to net":                  snapshot.ClassNetwork,
	"reading from net":                snapshot.ClassNetwork,
	"receiving from client":           snapshot.ClassNetwork,
	"waiting for net":                 snapshot.ClassNetwork,
	"sending cached result to client": snapshot.ClassNetwork,

	"converting heap to ondisk":                     snapshot.ClassIO,
	"converting heap to myisam":                     snapshot.ClassIO,
	"converting heap to aria":                       snapshot.ClassIO,
	"copying to tmp table on disk":                  snapshot.ClassIO,
	"reading file":                                  snapshot.ClassIO,
	"flushing relay log and master info repository": snapshot.ClassIO,

	"user sleep": snapshot.ClassSleep,

	"user lock":               snapshot.ClassOther, // GET_LOCK()
	"waiting for user lock":   snapshot.ClassOther,
	"rolling back":            snapshot.ClassOther,
	"killed":                  snapshot.ClassOther,
	"opening tables":          snapshot.ClassOther, // table cache, its mutex
	"waiting for ddl":         snapshot.ClassOther,
	"waiting to get readlock": snapshot.ClassGlobalLock,
}

// statePattern classifies states that come in families.
func statePattern(s string) (snapshot.WaitClass, bool) {
	switch {
	case s == "":
		return 0, false
	case strings.HasPrefix(s, "waiting for") && strings.HasSuffix(s, "metadata lock"):
		return snapshot.ClassMetadataLock, true // table, schema, stored function, trigger, ...
	case strings.Contains(s, "query cache"):
		return snapshot.ClassQueryCache, true // waiting for its lock, checking, storing, invalidating
	case strings.HasPrefix(s, "waiting for backup"):
		return snapshot.ClassGlobalLock, true
	}
	return 0, false
}

// lowerInto lower-cases ASCII s into buf, so states compare whatever case
// the server prints them in.
func lowerInto(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}
