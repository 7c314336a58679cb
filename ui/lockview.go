package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
	"github.com/rivo/tview"
)

// lockView is the lock view (key L): the frame's lock tree, root blockers
// first, each with the threads waiting beneath it. It replaces the findings
// and processlist while open; k/K there kill the selected root blocker.
type lockView struct {
	active bool
	tree   *infer.LockTree
	snap   *snapshot.Snapshot
	rows   []lockRow // as last drawn
	sel    int
	selID  int64 // the selected thread, kept across frames
	top    int
}

// lockRow is one line of the view: a node, or "… N more" under a root.
type lockRow struct {
	node  *infer.LockNode
	depth int
	more  int // > 0: a line standing for this many hidden waiters
	root  bool
}

func newLockView() *lockView { return &lockView{} }

// set takes a new snapshot; the tree is built when the view is drawn.
func (v *lockView) set(s *snapshot.Snapshot) {
	if s != v.snap {
		v.snap, v.tree = s, nil
	}
}

func (v *lockView) build() *infer.LockTree {
	if v.tree == nil && v.snap != nil {
		v.tree = infer.BuildLockTree(v.snap)
	}
	return v.tree
}

// layoutRows flattens the tree for h lines. Every root gets its line; when
// the whole tree does not fit, each root keeps an equal share of lines for
// its waiters and a "… N more" line, so at 80×24 every root blocker shows.
func layoutRows(tr *infer.LockTree, h int) []lockRow {
	if tr == nil {
		return nil
	}
	total := 0
	for _, r := range tr.Roots {
		total += 1 + r.Waiters
	}
	share := -1 // unlimited
	if total > h && len(tr.Roots) > 0 {
		share = max(1, (h-len(tr.Roots))/len(tr.Roots))
	}
	var rows []lockRow
	for _, r := range tr.Roots {
		rows = append(rows, lockRow{node: r, root: true})
		var under []lockRow
		var walk func(n *infer.LockNode, depth int)
		walk = func(n *infer.LockNode, depth int) {
			for _, c := range n.Children {
				under = append(under, lockRow{node: c, depth: depth})
				walk(c, depth+1)
			}
		}
		walk(r, 1)
		if share >= 0 && len(under) > share {
			shown := under[:share-1]
			rows = append(rows, shown...)
			rows = append(rows, lockRow{depth: 1, more: len(under) - len(shown)})
			continue
		}
		rows = append(rows, under...)
	}
	return rows
}

// lockHeaderLines are the notes above the rows: the sources and why any
// part is inferred.
func lockHeaderLines(tr *infer.LockTree, s *snapshot.Snapshot) []string {
	var lines []string
	if s != nil && s.Locks != nil {
		for _, n := range s.Locks.Notes {
			lines = append(lines, "[yellow]"+safeLine(n, 300)+"[-]")
		}
	}
	if tr == nil {
		return lines
	}
	var src []string
	for _, k := range lockKinds {
		if name, ok := tr.Sources[k]; ok {
			if s != nil {
				name += sourceAge(s.Locks, k)
			}
			src = append(src, string(k)+": "+name)
		}
	}
	if len(src) > 0 {
		lines = append(lines, "[gray]"+safeLine(strings.Join(src, "  "), 300)+"[-]")
	}
	return lines
}

// Columns of the lock view: at 80 columns host and state give way, so the
// statement and the waiter counts stay on screen.
const (
	lockColumnsWide   = "  Id       User         Host         Age   State             Waiting Kind   Object             Statement"
	lockColumnsNarrow = "  Id       User         Age   Waiting Kind   Object / statement"
	lockWideFrom      = 120
)

func (v *lockView) draw(screen tcell.Screen, r rect) {
	clearRows(screen, r.x, r.y, r.w, r.h)
	tr := v.build()
	box := newBox().SetBorder(true).SetTitle(v.title(tr))
	box.SetRect(r.x, r.y, r.w, r.h)
	box.Draw(screen)
	bx, by, bw, bh := box.GetInnerRect()
	line := 0
	put := func(text string, color tcell.Color) {
		if line < bh {
			printLine(screen, text, bx, by+line, bw, tview.AlignLeft, color)
		}
		line++
	}
	notes := lockHeaderLines(tr, v.snap)
	for _, n := range notes[:min(len(notes), max(0, bh-3))] {
		put(n, textColor)
	}
	if tr == nil {
		v.rows = nil
		put("nothing waits for a lock", tcell.ColorSilver)
		return
	}
	wide := bw >= lockWideFrom
	header := lockColumnsNarrow
	if wide {
		header = lockColumnsWide
	}
	put("[::b]"+header+"[::-]", textColor)
	body := bh - line
	v.rows = layoutRows(tr, body)
	v.keepSelection()
	if v.sel < v.top {
		v.top = v.sel
	}
	if v.sel >= v.top+body {
		v.top = v.sel - body + 1
	}
	for i := v.top; i < len(v.rows) && line < bh; i++ {
		text := rowText(v.rows[i], wide)
		if i == v.sel {
			text = "[::r]" + text + "[::-]"
		}
		put(text, textColor)
	}
}

func (v *lockView) title(tr *infer.LockTree) string {
	if tr == nil {
		return " Locks "
	}
	roots := len(tr.RootBlockers())
	s := fmt.Sprintf(" Locks  %d waiting, %d root blocker", tr.Waiting, roots)
	if roots != 1 {
		s += "s"
	}
	if tr.Inferred {
		s += " [yellow](partly inferred)[-]"
	}
	return s + "  L/Esc back "
}

// rowText formats one node, indented under its parent; a root shows the
// kinds of lock its waiters wait for.
func rowText(row lockRow, wide bool) string {
	indent := strings.Repeat("  ", row.depth)
	if row.more > 0 {
		return fmt.Sprintf("  %s[gray]… and %s more waiting[-]", indent, commas(int64(row.more)))
	}
	n := row.node
	mark := "  "
	switch {
	case row.root && n.Thread != 0:
		mark = "[red::b]▶[-::-] "
	case row.root && n.TrxID != "":
		mark = "[yellow::b]◆[-::-] " // a holder with no thread: nothing to kill
	}
	id, user, host, state := "?", "", "", ""
	if n.Thread != 0 {
		id = fmt.Sprint(n.Thread)
	}
	if p := n.Proc; p != nil {
		user, host, state = p.User, p.Host, p.State
		if state == "" {
			state = p.Command
		}
	} else if n.TrxID != "" {
		id, user, state = "trx "+n.TrxID, "(no conn.)", n.Trx.TrxStateOr("no thread")
	} else if n.Thread == 0 {
		user = "(not seen)"
	}
	waiting := ""
	if n.Waiters > 0 {
		waiting = commas(int64(n.Waiters))
	}
	kind, obj := nodeKind(row), n.Wait.Object
	what := safeLine(n.Statement(), 400)
	if !row.root && obj != "" {
		what = safeLine(obj, 60) + "  " + what
	}
	ageText := age(time.Duration(n.AgeS()) * time.Second)
	if !n.Seen() {
		ageText = ""
	}
	if wide {
		return mark + fmt.Sprintf("%s%-8s %-12s %-12s %5s %-17s %7s %-6s %-18s %s", indent, safeLine(id, 8),
			safeLine(user, 12), safeLine(host, 12), ageText, safeLine(state, 17), waiting, kind, safeLine(obj, 18),
			safeLine(n.Statement(), 400))
	}
	return mark + fmt.Sprintf("%s%-8s %-12s %5s %7s %-6s %s", indent, safeLine(id, 8), safeLine(user, 12), ageText,
		waiting, kind, what)
}

// nodeKind is how a waiter waits ("row", "table?" when inferred), or for a
// root the kinds its waiters wait for.
func nodeKind(row lockRow) string {
	n := row.node
	if !row.root || n.Thread == 0 {
		k := shortKind(n.Wait.Kind)
		if n.Wait.Inferred {
			k += "?"
		}
		return k
	}
	var ks []string
	for _, k := range lockKinds {
		if n.Kinds[k] > 0 {
			ks = append(ks, shortKind(k))
		}
	}
	return strings.Join(ks, ",")
}

// lockKinds are the kinds in the order the view lists them.
var lockKinds = []snapshot.LockKind{snapshot.LockRow, snapshot.LockMetadata, snapshot.LockTable, snapshot.LockQueryCache,
	snapshot.LockGlobal}

func shortKind(k snapshot.LockKind) string {
	switch k {
	case snapshot.LockMetadata:
		return "mdl"
	case snapshot.LockQueryCache:
		return "qc"
	case snapshot.LockGlobal:
		return "glob"
	}
	return string(k)
}

// keepSelection moves the selection to the thread selected before, if it
// is still shown.
func (v *lockView) keepSelection() {
	for i, r := range v.rows {
		if r.node != nil && r.node.Thread == v.selID && v.selID != 0 {
			v.sel = i
			return
		}
	}
	v.sel = min(max(v.sel, 0), max(len(v.rows)-1, 0))
}

func (v *lockView) selected() *lockRow {
	if v.sel < 0 || v.sel >= len(v.rows) {
		return nil
	}
	return &v.rows[v.sel]
}

// move changes the selection by delta rows (clamped).
func (v *lockView) move(delta int) {
	v.sel = min(max(v.sel+delta, 0), max(len(v.rows)-1, 0))
	v.selID = 0
	if r := v.selected(); r != nil && r.node != nil {
		v.selID = r.node.Thread
	}
}

// handle takes the keys the lock view owns; false passes a key on to the
// dashboard's bindings.
func (d *Dashboard) handleLockKey(ev *tcell.EventKey) bool {
	v := d.locks
	if cursorKey(ev, len(v.rows), v.move) {
		return true
	}
	switch ev.Key() {
	case tcell.KeyEscape:
		v.active = false
	case tcell.KeyEnter:
		d.openLockNode()
	case tcell.KeyRune:
		switch ev.Rune() {
		case 'k', 'K':
			if d.opts.Actions == nil || d.opts.ReadOnly {
				return false
			}
			d.confirmRootKill(ev.Rune() == 'K')
		default:
			return false
		}
	default:
		return false
	}
	return true
}

func (d *Dashboard) toggleLocks() {
	d.locks.active = !d.locks.active
	if d.locks.active && d.frame != nil {
		d.locks.set(d.frame.Snapshot)
	}
}

// openLockNode shows the selected node's thread in full.
func (d *Dashboard) openLockNode() {
	r := d.locks.selected()
	if r == nil || r.node == nil {
		return
	}
	n := r.node
	var b strings.Builder
	if n.TrxID != "" && n.Thread == 0 {
		d.openModal(textModal(newTextView(fmt.Sprintf(" Lock: transaction %s ", safeLine(n.TrxID, 40)), threadlessText(n))))
		return
	}
	if n.Wait.Kind != "" {
		fmt.Fprintf(&b, "[::b]waits for[::-] %s lock %s", n.Wait.Kind, safeLine(n.Wait.Object, 200))
		if n.Wait.Record != "" {
			fmt.Fprintf(&b, " record %s", safeLine(n.Wait.Record, 80))
		}
		if n.Wait.Mode != "" {
			fmt.Fprintf(&b, " (%s)", safeLine(n.Wait.Mode, 40))
		}
		if n.Wait.Inferred {
			b.WriteString(" [yellow](inferred: the source does not name the holder)[-]")
		}
		b.WriteString("\n")
	}
	if n.Trx != nil && n.Trx.TrxAgeS >= 0 {
		fmt.Fprintf(&b, "[::b]transaction[::-] open %s, %s, %s rows locked, %s modified\n",
			age(time.Duration(n.Trx.TrxAgeS)*time.Second), safeLine(n.Trx.TrxState, 40), commas(n.Trx.RowsLocked),
			commas(n.Trx.RowsModified))
	}
	fmt.Fprintf(&b, "[::b]waiting beneath[::-] %s", commas(int64(n.Waiters)))
	if n.Guessed > 0 {
		fmt.Fprintf(&b, " [yellow](%s by an inferred edge)[-]", commas(int64(n.Guessed)))
	}
	b.WriteString("\n")
	if n.Proc != nil {
		b.WriteString(d.processText(n.Proc))
	} else {
		b.WriteString("\n" + safeText(n.Statement()))
	}
	d.openModal(textModal(newTextView(fmt.Sprintf(" Lock: thread %d ", n.Thread), b.String())))
}

// confirmRootKill asks before killing a root blocker, naming what it will
// release. KILL QUERY does not end an idle transaction, so it says so.
func (d *Dashboard) confirmRootKill(connection bool) {
	r := d.locks.selected()
	if r != nil && r.node != nil && r.root && r.node.Thread == 0 && r.node.TrxID != "" {
		d.openModal(textModal(newTextView(fmt.Sprintf(" Transaction %s ", safeLine(r.node.TrxID, 40)),
			threadlessText(r.node))))
		return
	}
	if r == nil || r.node == nil || !r.root || r.node.Thread == 0 {
		d.say("k/K act on a root blocker: select a top-level row marked ▶")
		return
	}
	n := r.node
	what := "KILL QUERY"
	if connection {
		what = "KILL CONNECTION"
	}
	id := n.Thread
	if n.Proc == nil {
		// Nothing to hold the server to at y: the kill gate would refuse.
		d.say(fmt.Sprintf("thread %d is not in the processlist: who it is cannot be confirmed, nothing to kill", id))
		return
	}
	if why := d.killRefusal(n.Proc, id); why != "" {
		d.say(fmt.Sprintf("thread %d is never killed from here: %s", id, why))
		return
	}
	text := rootKillText(n, what, connection, d.locks.tree)
	target := snapshot.KillTargetOf(d.frame, n.Proc)
	d.openModal(confirmModal(" "+what+" ", text, func() { d.kill(target, connection, what) }))
}

// lockHints are the footer's key hints while the lock view is open.
func (d *Dashboard) lockHints() []item {
	items := []item{{"L/Esc back", 9}, {"↑↓ select", 7}, {"Enter detail", 5}}
	if d.opts.Actions != nil && !d.opts.ReadOnly {
		items = append(items, item{"k/K kill root blocker", 8})
	}
	return append(items, item{"? help", 6}, item{"q quit", 6})
}
