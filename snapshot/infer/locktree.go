package infer

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// LockTree is Locks joined with the processlist: root blockers first, each
// with the threads that wait beneath it. The dashboard, the rules and the
// report all build it with BuildLockTree, live and in replay alike.
type LockTree struct {
	// Roots are sorted by waiters beneath, most first; holders that were not
	// seen (Thread 0) come last.
	Roots []*LockNode
	// Waiting counts the distinct waiting threads.
	Waiting int
	// Inferred is set when any edge was guessed from the processlist.
	Inferred bool
	Sources  map[snapshot.LockKind]string
	Notes    []string
}

// LockNode is one thread in the tree.
type LockNode struct {
	// Thread is the processlist id; 0 for a holder that was not seen or a
	// transaction with no thread (TrxID set).
	Thread int64
	// TrxID is set for a holder that is a transaction with no thread (an XA
	// PREPARED one, a recovered one): Trx says what ends it.
	TrxID string
	// Proc is the thread's processlist row; nil when it is not listed.
	Proc *snapshot.Process
	// Trx is what the lock sources know of it; nil when nothing.
	Trx *snapshot.LockThread
	// Wait is how this node waits for its parent (zero for a root); a root
	// with Thread 0 keeps the kind and object its waiters wait for.
	Wait     snapshot.LockWait
	Children []*LockNode
	// Waiters counts the distinct threads waiting on it, directly or through
	// others (a thread behind two holders counts for both).
	Waiters int
	// Kinds counts those waiters by the kind of lock they wait for.
	Kinds map[snapshot.LockKind]int
	// Guessed counts the waiters placed beneath it through an inferred edge
	// (theirs or one above them): what killing it is only guessed to release.
	Guessed int
}

// Seen reports a holder the tree can name: a thread, or a transaction with
// no thread.
func (n *LockNode) Seen() bool { return n.Thread != 0 || n.TrxID != "" }

// nodeKey names a node: a thread, a transaction with no thread, or the
// unseen holder of one object (one record, where the source names it).
type nodeKey struct {
	id   int64
	trx  string
	kind snapshot.LockKind
	obj  string
	rec  string
}

func keyOf(id int64, w snapshot.LockWait) nodeKey {
	if id != 0 {
		return nodeKey{id: id}
	}
	if w.BlockerTrx != "" {
		return nodeKey{trx: w.BlockerTrx}
	}
	return nodeKey{kind: w.Kind, obj: w.Object, rec: w.Record}
}

// BuildLockTree returns the tree of s, or nil when nothing waits.
func BuildLockTree(s *snapshot.Snapshot) *LockTree {
	if s == nil || s.Locks == nil || len(s.Locks.Waits) == 0 {
		return nil
	}
	g := newLockGraph(s.Locks.Waits)
	t := &LockTree{Waiting: len(g.waiting), Sources: s.Locks.Sources, Notes: s.Locks.Notes}
	procs := make(map[int64]*snapshot.Process, len(g.nodes))
	for i := range s.Processlist {
		if p := &s.Processlist[i]; g.nodes[nodeKey{id: p.ID}] {
			procs[p.ID] = p
		}
	}
	node := func(k nodeKey, w snapshot.LockWait) *LockNode {
		n := &LockNode{Thread: k.id, TrxID: k.trx, Proc: procs[k.id], Trx: s.Locks.Thread(k.id), Wait: w}
		if k.trx != "" {
			n.Trx = s.Locks.Trx(k.trx)
		}
		return n
	}
	placed := map[nodeKey]bool{}
	for _, k := range g.rootKeys() {
		root := node(k, snapshot.LockWait{Kind: k.kind, Object: k.obj, Record: k.rec})
		g.place(root, k, placed, node)
		root.Waiters, root.Kinds = g.reach(k)
		t.Roots = append(t.Roots, root)
	}
	for _, e := range s.Locks.Waits {
		t.Inferred = t.Inferred || e.Inferred
	}
	slices.SortStableFunc(t.Roots, compareRoots)
	return t
}

func compareRoots(a, b *LockNode) int {
	if a.Seen() != b.Seen() {
		if !a.Seen() {
			return 1
		}
		return -1
	}
	if c := cmp.Compare(b.Waiters, a.Waiters); c != 0 {
		return c
	}
	if c := cmp.Compare(b.AgeS(), a.AgeS()); c != 0 {
		return c
	}
	return cmp.Compare(a.Thread, b.Thread)
}

// lockGraph is the wait-for graph with its edges reversed: who waits on whom.
type lockGraph struct {
	waitersOf map[nodeKey][]snapshot.LockWait
	waiting   map[int64]bool
	nodes     map[nodeKey]bool
	blockers  []nodeKey // in first-seen order, for stable output
}

func newLockGraph(waits []snapshot.LockWait) *lockGraph {
	g := &lockGraph{waitersOf: map[nodeKey][]snapshot.LockWait{}, waiting: map[int64]bool{}, nodes: map[nodeKey]bool{}}
	seen := map[[2]nodeKey]bool{}
	for _, e := range waits {
		b, w := keyOf(e.Blocker, e), nodeKey{id: e.Waiter}
		if e.Waiter == 0 || b == w || seen[[2]nodeKey{w, b}] {
			continue
		}
		seen[[2]nodeKey{w, b}] = true
		if _, ok := g.waitersOf[b]; !ok {
			g.blockers = append(g.blockers, b)
		}
		g.waitersOf[b] = append(g.waitersOf[b], e)
		g.waiting[e.Waiter] = true
		g.nodes[b], g.nodes[w] = true, true
	}
	for _, ws := range g.waitersOf {
		slices.SortFunc(ws, func(a, b snapshot.LockWait) int { return cmp.Compare(a.Waiter, b.Waiter) })
	}
	return g
}

// rootKeys are the blockers that wait for nothing; a cycle with no such
// blocker (a deadlock the server has not broken yet) is entered at its
// lowest thread id so its members still show.
func (g *lockGraph) rootKeys() []nodeKey {
	var roots []nodeKey
	for _, b := range g.blockers {
		if b.id == 0 || !g.waiting[b.id] { // a transaction with no thread waits for nothing
			roots = append(roots, b)
		}
	}
	covered := map[nodeKey]bool{}
	for _, r := range roots {
		g.walk(r, covered)
	}
	var rest []nodeKey
	for _, b := range g.blockers {
		if !covered[b] {
			rest = append(rest, b)
		}
	}
	slices.SortFunc(rest, func(a, b nodeKey) int { return cmp.Compare(a.id, b.id) })
	for _, b := range rest {
		if !covered[b] {
			roots = append(roots, b)
			g.walk(b, covered)
		}
	}
	return roots
}

// walk marks every node waiting on k, directly or not, and k itself.
func (g *lockGraph) walk(k nodeKey, seen map[nodeKey]bool) {
	stack := []nodeKey{k}
	seen[k] = true
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.waitersOf[cur] {
			w := nodeKey{id: e.Waiter}
			if !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
}

// reach counts the distinct waiters beneath k, by kind.
func (g *lockGraph) reach(k nodeKey) (int, map[snapshot.LockKind]int) {
	kinds := map[snapshot.LockKind]int{}
	seen := map[nodeKey]bool{k: true}
	stack := []nodeKey{k}
	n := 0
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.waitersOf[cur] {
			w := nodeKey{id: e.Waiter}
			if !seen[w] {
				seen[w] = true
				n++
				kinds[e.Kind]++
				stack = append(stack, w)
			}
		}
	}
	return n, kinds
}

// place hangs the waiters of root beneath it breadth first, so each waiter
// sits under the blocker nearest a root; a thread is placed once.
func (g *lockGraph) place(root *LockNode, k nodeKey, placed map[nodeKey]bool, node func(nodeKey, snapshot.LockWait) *LockNode) {
	placed[k] = true
	type item struct {
		n *LockNode
		k nodeKey
	}
	queue := []item{{root, k}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range g.waitersOf[cur.k] {
			w := nodeKey{id: e.Waiter}
			if placed[w] {
				continue
			}
			placed[w] = true
			child := node(w, e)
			cur.n.Children = append(cur.n.Children, child)
			queue = append(queue, item{child, w})
		}
	}
	// count returns the waiters beneath n and how many of them hang by an
	// inferred edge on the way down.
	var count func(n *LockNode) (int, int)
	count = func(n *LockNode) (int, int) {
		c, guessed := 0, 0
		for _, ch := range n.Children {
			cc, cg := count(ch)
			c += 1 + cc
			if ch.Wait.Inferred {
				guessed += 1 + cc
			} else {
				guessed += cg
			}
		}
		if n != root {
			n.Waiters = c
		}
		n.Guessed = guessed
		return c, guessed
	}
	count(root)
}

// AgeS is how long the node has held what it holds, as far as known: its
// transaction's age, else the time in its current state.
func (n *LockNode) AgeS() int64 {
	if n.Trx != nil && n.Trx.TrxAgeS >= 0 {
		return n.Trx.TrxAgeS
	}
	if n.Proc != nil {
		return n.Proc.TimeMS / 1000
	}
	return 0
}

// IdleInTrx reports a thread that runs nothing while its transaction is open.
func (n *LockNode) IdleInTrx() bool {
	return n.Proc != nil && n.Proc.Command == "Sleep" && n.Trx != nil && n.Trx.TrxAgeS >= 0
}

// Statement is what the node runs, or "idle in transaction for N s" with
// its last statement where known.
func (n *LockNode) Statement() string {
	if n.Thread == 0 && n.TrxID != "" {
		return n.trxStatement()
	}
	if n.Proc != nil && n.Proc.Info != "" {
		return n.Proc.Info
	}
	if n.IdleInTrx() {
		s := fmt.Sprintf("idle in transaction for %d s", n.Proc.TimeMS/1000)
		if n.Trx.LastStatement != "" {
			s += ", last: " + n.Trx.LastStatement
		}
		return s
	}
	if n.Trx != nil && n.Trx.LastStatement != "" {
		return "last: " + n.Trx.LastStatement
	}
	if n.Proc != nil && n.Proc.Command == "Sleep" {
		return fmt.Sprintf("idle for %d s", n.Proc.TimeMS/1000)
	}
	return ""
}

// trxStatement describes a holder with no thread: "XA PREPARED transaction
// 1234 'xid', no connection: ends with XA ROLLBACK 'xid' (or XA COMMIT 'xid')".
func (n *LockNode) trxStatement() string {
	t := n.Trx
	if t == nil {
		return fmt.Sprintf("transaction %s with no connection", n.TrxID)
	}
	what := "recovered transaction"
	if t.Prepared() {
		what = "XA PREPARED transaction"
	}
	s := fmt.Sprintf("%s %s", what, n.TrxID)
	if t.XID != "" {
		s += " xid " + t.XID
	}
	if t.TrxAgeS >= 0 {
		s += fmt.Sprintf(", open %d s", t.TrxAgeS)
	}
	return s + ", no connection: ends with " + t.Ends()
}

// RootBlockers are the seen roots with waiters of any of kinds (all kinds
// when none is given), most waiters first.
func (t *LockTree) RootBlockers(kinds ...snapshot.LockKind) []snapshot.RootBlocker {
	if t == nil {
		return nil
	}
	var out []snapshot.RootBlocker
	for _, r := range t.Roots {
		if !r.Seen() {
			continue
		}
		n := r.Waiters
		if len(kinds) > 0 {
			n = 0
			for _, k := range kinds {
				if r.Kinds[k] > 0 {
					n = r.Waiters
				}
			}
		}
		if n == 0 {
			continue
		}
		rb := snapshot.RootBlocker{Thread: r.Thread, AgeS: r.AgeS(), Waiters: n, Statement: r.Statement(), Guessed: r.Guessed}
		if r.Proc != nil {
			rb.User = r.Proc.User
		}
		if r.Thread == 0 {
			rb.TrxID = r.TrxID
			if r.Trx != nil {
				rb.XID, rb.Ends = r.Trx.XID, r.Trx.Ends()
			}
		}
		out = append(out, rb)
	}
	return out
}
