package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// DDL (or LOCK TABLES / FLUSH) waits for a metadata lock an open transaction
// holds, and every later statement on the table queues behind the DDL
// (LOCK-01). Waiters for the persistence window are a warning; DDL waiting
// with ordinary statements queued behind it is critical.
const mdlState = "Waiting for table metadata lock"

var ddlVerbs = map[string]bool{
	"ALTER": true, "CREATE": true, "DROP": true, "TRUNCATE": true, "RENAME": true, "OPTIMIZE": true,
	"REPAIR": true, "ANALYZE": true, "LOCK": true, "FLUSH": true,
}

// IDMetadataLockPileup names the findings of metadata_lock_pileup: a contract
// (the README's findings table), stable, never reused.
const IDMetadataLockPileup = "metadata_lock_pileup"

// MDLConfig holds metadata_lock_pileup's thresholds, each with its source and the
// trap it avoids.
type MDLConfig struct {
	// MDLWaitersWarn: threads in "Waiting for table metadata lock" (LOCK-01,
	// count UNKNOWN, persistence PTS).
	// Trap: the instant MDL waits of DDL on an idle table (5 frames).
	MDLWaitersWarn int
}

func (c *MDLConfig) defaults() {
	*c = MDLConfig{
		MDLWaitersWarn: 1,
	}
}

// metadataLockPileupRule is metadata_lock_pileup in the rules table
// (rule.go). PTS --cycles 5 --interval 1 for state pile-ups (QC-01, LOCK-01,
// CONC-01).
var metadataLockPileupRule = rule{id: IDMetadataLockPileup, check: checkMetadataLockPileup, persist: persistFor(5*time.Second, 5*time.Second)}

func checkMetadataLockPileup(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorProcesslist); r != "" {
		return notApplicable(r)
	}
	waiters := w.processes().inStates(mdlState)
	if len(waiters) < max(c.MDLWaitersWarn, 1) {
		return quiet()
	}
	var ddl, other []*snapshot.Process
	for _, p := range waiters {
		if ddlVerbs[snapshot.StatementVerb(p.Info)] {
			ddl = append(ddl, p)
		} else {
			other = append(other, p)
		}
	}
	sev := snapshot.Warning
	if len(ddl) > 0 && len(other) > 0 {
		sev = snapshot.Critical
	}
	ev := []string{fmt.Sprintf("%d threads in %q (%d DDL), oldest %s", len(waiters), mdlState, len(ddl),
		fmtMS(waiters[0].TimeMS))}
	ev = append(append(ev, threadLines(append(ddl, other...))...), loadShare(w, snapshot.ClassMetadataLock)...)
	threads := ids(waiters, maxThreadIDs)
	if b := mdlBlocker(w); b != nil {
		ev = append(ev, "probable holder: "+threadLine(b))
		threads = append(threads, b.ID)
	}
	return withRootBlockers(w, raise(sev, fmt.Sprintf("%d threads wait for a table metadata lock", len(waiters)), ev,
		"Find the session holding the table open (an open transaction, often idle in Sleep, or a long "+
			"query on the table) and commit or KILL it, or cancel the DDL; run DDL with a short "+
			"lock_wait_timeout so it gives up instead of blocking everyone.", threads), snapshot.LockMetadata)
}

// mdlBlocker guesses the holder: the session with the oldest open InnoDB
// transaction, else the longest-running statement not itself waiting.
func mdlBlocker(w *window) *snapshot.Process {
	pv := w.processes()
	if in := w.snap.InnoDB; in != nil {
		if t := oldestActive(in.Transactions.Trx); t != nil {
			if p := pv.byID(t.ThreadID); p != nil && p.State != mdlState {
				return p
			}
		}
	}
	for _, p := range pv.running(0, "SELECT", "UPDATE", "DELETE", "INSERT", "REPLACE") {
		if p.State != mdlState {
			return p
		}
	}
	return nil
}
