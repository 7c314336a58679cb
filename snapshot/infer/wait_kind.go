package infer

import (
	"github.com/mytop-go/mytop-go/snapshot"
)

// waitStates are processlist states of a thread waiting for a lock the
// processlist can name, with the kind of lock.
var waitStates = map[string]snapshot.LockKind{
	"waiting for table metadata lock": snapshot.LockMetadata,
	"waiting for table level lock":    snapshot.LockTable,
	"locked":                          snapshot.LockTable, // MySQL 5.1
	"waiting for table lock":          snapshot.LockTable,
	"waiting for query cache lock":    snapshot.LockQueryCache,
}

// WaitKind returns the lock kind p waits for by its state, "" if none.
func WaitKind(p *snapshot.Process) snapshot.LockKind {
	if p.Command == "Sleep" || p.State == "" {
		return ""
	}
	st := snapshot.LowerASCII(p.State)
	if _, ok := globalStates[st]; ok {
		return snapshot.LockGlobal
	}
	return waitStates[st]
}
