package baseline

import (
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// member is a kind of signal in a cause's signature, with the direction
// that counts for that cause (the queries falling under a CPU hog, rising
// in a workload spike).
type member struct {
	kind kind
	dir  direction
}

// class is a cause class: its signature and how it is told.
type class struct {
	cause string
	// keys: at least one must be out; need: how many members in all.
	keys, others []member
	// not are the moves that contradict the cause: with any of them out,
	// the signature does not hold.
	not  []member
	need int
	// weight ranks the classes that name a root (a process outside mysqld,
	// routine work, a new statement) above those that are usually its
	// effects (lock waits, a busy disk) when both move.
	weight float64
	// proofs are the keys that are evidence rather than statistics: a
	// tool's own statement, a process's own measured CPU. The hold is there
	// to wait out the normal's noise; with a proof among the moved keys the
	// signature holds half of it (its effect must still move beside it).
	proofs []kind
	// felt are the effects that show the server itself feels the cause
	// (fewer queries, more sessions running or on CPU): with a proof among
	// the moved keys they count at half the distance and past the normal's
	// bursts. A process measured burning the CPUs is there or not; what is
	// left to show is that mysqld's sessions suffer, and on a host whose
	// normal already has bursts to 100 % busy those effects stay within the
	// bursts for seconds, while the host's own (busy share, run queue) are
	// the hog itself and so count only in full.
	felt []member
	tell func(c *told)
}

// holdOf is how long class c's signature, with ms moved, must hold before
// it is an onset.
func (c *class) holdOf(cfg Config, ms []moved) float64 {
	for _, x := range ms {
		if x.key && slices.Contains(c.proofs, x.g.kind) {
			return cfg.Hold.Seconds() / 2
		}
	}
	return cfg.Hold.Seconds()
}

func m(k kind, d direction) member { return member{k, d} }

func ups(ks ...kind) []member {
	out := make([]member, len(ks))
	for i, k := range ks {
		out[i] = member{k, up}
	}
	return out
}

// classes are the cause classes, in the order a tie is broken.
var classes = []class{
	{cause: snapshot.CauseRoutine, keys: ups(kRoutine),
		others: ups(kRowsRead, kScanReads, kBytesSent, kDataRead, kDataWritten, kWrites, kDiskUtil, kDiskRead,
			kDiskWrite, kLoadIO, kLoadMDL, kLoadTableLock, kLoadGlobalLock, kThreadsRunning, kLoadTotal, kMysqldCPU,
			kStatement, kLoadCPU, kRowsPerQuery, kScanPerQuery),
		// A tool's own statement names it (analyzers/routine.go).
		need: 2, weight: 3, proofs: []kind{kRoutine}, tell: tellRoutine},
	{cause: snapshot.CauseCPUOutside, keys: ups(kOtherCPU, kOtherTop),
		others: append(ups(kRunQueue, kStallCPU, kHostBusy, kLoadCPU, kThreadsRunning, kLoadTotal), m(kQueries, down)),
		need:   2, weight: 3, proofs: []kind{kOtherTop}, tell: tellCPUOutside,
		felt: append(ups(kThreadsRunning, kLoadCPU, kLoadTotal), m(kQueries, down))},
	{cause: snapshot.CauseFlush, keys: ups(kFlushCmds, kTablesOpened, kLogWaits, kCheckpointAge, kLoadCommit),
		others: ups(kPagesFlushed, kLoadTableLock, kDataWritten, kDiskWrite, kDiskUtil, kLoadIO, kThreadsRunning,
			kLoadTotal),
		need: 2, weight: 2.5, tell: tellFlush},
	{cause: snapshot.CauseStatement, keys: ups(kStatement, kRowsPerQuery, kScanPerQuery),
		others: ups(kRowsRead, kScanReads, kScans, kLoadCPU, kLoadIO, kMysqldCPU, kHostBusy, kStallCPU, kDataRead,
			kThreadsRunning),
		need: 2, weight: 2, tell: tellStatement},
	// A spike is more requests: never while the server completes fewer
	// than usual (sessions piling up behind a lock, with a new client's
	// one idle session among them, are not a spike).
	{cause: snapshot.CauseWorkload, keys: ups(kQueries, kConnections, kClientHost, kUser),
		others: ups(kBytesRecv, kWrites, kThreadsRunning, kLoadTotal, kRowsRead, kMysqldCPU, kHostBusy, kBytesSent),
		not:    []member{m(kQueries, down)},
		need:   2, weight: 2, tell: tellWorkload},
	{cause: snapshot.CauseReplication, keys: ups(kReplicaLag, kLoadReplication), need: 1, weight: 2, tell: tellReplication},
	{cause: snapshot.CauseMemory, keys: ups(kSwap, kRSS), others: []member{m(kMemAvail, down), m(kStallMem, up)},
		need: 1, weight: 2,
		tell: tellMemory},
	// The monitor's own round trip corroborates but never opens: on a loaded
	// host it wanders with the monitor's own scheduling. Sessions idle
	// inside their transactions open it: the server waits on its clients'
	// round trips (a link at its capacity drops and retransmits nothing).
	// It is never the network while the server completes more requests
	// than usual.
	{cause: snapshot.CauseNetwork, keys: ups(kLoadNetwork, kRetrans, kNetErrors, kIdleInTrx, kClientQueue),
		others: []member{m(kBytesSent, down), m(kBytesRecv, down), m(kQueries, down), m(kNetTx, down), m(kNetRx, down),
			m(kThreadsRunning, up), m(kRoundTrip, up), m(kClientBytes, up)},
		not:  ups(kQueries),
		need: 2, weight: 2, tell: tellNetwork},
	{cause: snapshot.CauseDisk, keys: ups(kDiskUtil, kDiskAwait, kIOWait, kBlocked),
		others: append(ups(kStallIO, kLoadIO, kDiskRead, kDiskWrite, kThreadsRunning, kLoadCommit), m(kQueries, down)),
		need:   2, weight: 1.5, tell: tellDisk},
	{cause: snapshot.CauseLocks, keys: ups(kRowLockTime, kRowLockCurrent, kLoadRowLock, kLoadMDL, kLoadTableLock,
		kLoadGlobalLock, kTableLockWaits),
		others: []member{m(kThreadsRunning, up), m(kLoadTotal, up), m(kQueries, down), m(kRowLockWaits, both)},
		need:   2, weight: 1, tell: tellLocks},
}

// moved is one signal out of its band, as a class sees it; loose: an
// effect the server felt, out only at half the distance (felt), which does
// not date the onset.
type moved struct {
	g     *signal
	z     float64
	key   bool
	loose bool
}

// zCap bounds one signal's part of a score, so one signal that moved x1000
// does not outrank a signature where five moved x10.
const zCap = 12.0

// matches collects the class's signals that are out the way it counts,
// and says whether its signature holds.
func (c *class) matches(sigs []*signal, into []moved) ([]moved, bool) {
	into = into[:0]
	keys := 0
	loose := len(c.felt) > 0 && c.proven(sigs)
	for _, g := range sigs {
		if g.out == 0 {
			if loose && g.curOK && g.n > 0 && has(c.felt, g.kind, g.judgeLoose(g.cur)) {
				into = append(into, moved{g: g, z: g.z(g.cur), loose: true})
			}
			continue
		}
		if has(c.not, g.kind, g.out) {
			return into[:0], false
		}
		if has(c.keys, g.kind, g.out) {
			into = append(into, moved{g: g, z: g.z(g.cur), key: true})
			keys++
		} else if has(c.others, g.kind, g.out) {
			into = append(into, moved{g: g, z: g.z(g.cur)})
		}
	}
	return into, keys > 0 && len(into) >= c.need
}

// proven says a key that is a proof stands out.
func (c *class) proven(sigs []*signal) bool {
	for _, g := range sigs {
		if g.out != 0 && slices.Contains(c.proofs, g.kind) && has(c.keys, g.kind, g.out) {
			return true
		}
	}
	return false
}

// has says ms holds kind k moved the way dir says (0: not moved).
func has(ms []member, k kind, dir direction) bool {
	if dir == 0 {
		return false
	}
	for _, mb := range ms {
		if mb.kind == k && (mb.dir == both || mb.dir == dir) {
			return true
		}
	}
	return false
}

// score is how far the signature moved: the capped robust z of each signal.
func score(ms []moved) float64 {
	s := 0.0
	for _, x := range ms {
		z := x.z
		if z < 0 {
			z = -z
		}
		s += min(z/zOut, zCap)
	}
	return s
}
