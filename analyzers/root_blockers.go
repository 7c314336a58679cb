package analyzers

import (
	"fmt"
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// maxRootBlockers bounds the root blockers a finding names.
const maxRootBlockers = 5

// withRootBlockers names the lock tree's root blockers whose waiters wait
// for a lock of kinds: first in the evidence and in Threads, and in
// Finding.RootBlockers (report JSON findings[].root_blockers). A verdict
// without a finding, or a snapshot without a tree, passes unchanged.
func withRootBlockers(w *window, v verdict, kinds ...snapshot.LockKind) verdict {
	f := v.finding
	if f == nil {
		return v
	}
	tree := infer.BuildLockTree(w.snap)
	roots := tree.RootBlockers(kinds...)
	if len(roots) == 0 {
		return v
	}
	roots = roots[:min(len(roots), maxRootBlockers)]
	lines := make([]string, 0, len(roots)+len(f.Evidence))
	threads := make([]int64, 0, len(roots)+len(f.Threads))
	for _, r := range roots {
		lines = append(lines, rootBlockerLine(w, tree, r))
		if r.Thread != 0 {
			threads = append(threads, r.Thread)
		}
	}
	for _, id := range f.Threads {
		if !slices.Contains(threads, id) {
			threads = append(threads, id)
		}
	}
	f.Evidence = append(lines, f.Evidence...)
	f.Threads = threads
	f.RootBlockers = roots
	return v
}

// rootBlockerLine reads "root blocker: thread 4711 app@10.0.0.12, idle in
// transaction for 312 s, 37 waiting behind it (inferred)".
func rootBlockerLine(w *window, tree *infer.LockTree, r snapshot.RootBlocker) string {
	if r.Thread == 0 {
		// A transaction with no connection: what ends it, not a thread to kill.
		s := fmt.Sprintf("root blocker: %s, %d waiting behind it", r.Statement, r.Waiters)
		if r.Guessed > 0 {
			s += fmt.Sprintf(" (%d of them guessed)", r.Guessed)
		}
		return s
	}
	who, what := fmt.Sprintf("thread %d", r.Thread), r.Statement
	if p := w.processes().byID(r.Thread); p != nil {
		who += " " + userHost(p)
		if p.Info != "" {
			what = statement(p.Info)
		}
	}
	s := fmt.Sprintf("root blocker: %s, %s, %d waiting behind it", who, what, r.Waiters)
	switch {
	case r.Guessed == r.Waiters:
		s += " (inferred: no lock table names this holder)"
	case r.Guessed > 0:
		s += fmt.Sprintf(" (%d of them by an inferred edge)", r.Guessed)
	case tree.Inferred:
		s += " (other parts of the tree are inferred)"
	}
	return s
}
