package ui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// Dashboard is the whole screen. All its methods run on the UI goroutine.
type Dashboard struct {
	opts Options
	app  *tview.Application // set by Run; nil when drawn off-screen or in tests
	// screen is the one last drawn on; y copies through it (OSC 52).
	screen   tcell.Screen
	root     *root
	findings *findingsPanel
	procs    *procPanel
	list     *procList
	locks    *lockView
	load     *loadView
	hist     *history
	// stmtSampler estimates top statements when the server has no digests.
	stmtSampler stmtSampler
	keys        map[string]*binding
	bindings    []*binding
	views       []view

	frame  *snapshot.Frame // shown
	latest *snapshot.Frame // newest received
	// listed is the newest frame whose processlist was read: a tick that
	// ran out of time has none, and a kill confirmed then must not find
	// every target "gone" (seen under load: 0 of 20 killed).
	listed *snapshot.Frame
	// procsFrame is the frame whose processlist the panel shows: a kill
	// dialog holds the server to that frame's row.
	procsFrame *snapshot.Frame
	blind      blindCache
	paused     bool
	pending    int
	// playerPaused mirrors what was asked of the Player, for display.
	playerPaused bool
	// recOn is whether the header last showed REC, to tell the user when
	// recording stops without them asking (a write error).
	recOn bool

	focusFindings bool
	// view is the key of the pane view shown in the processlist's place
	// (replication, Galera), or "" for the processlist.
	view     string
	modal    *modal
	status   string
	statusAt time.Time
	quitting bool
	// tells carries lines from Tell to the UI goroutine.
	tells chan string
	// base is the healthy window marked with h, for D's diff.
	base baseline
}

const defaultHistory = 300

// New builds a dashboard; nothing is shown until the first Update.
func New(opts Options) *Dashboard {
	if opts.HistoryLen <= 0 {
		opts.HistoryLen = defaultHistory
	}
	d := &Dashboard{opts: opts, list: newProcList(), hist: newHistory(opts.HistoryLen), tells: make(chan string, 1)}
	d.findings = newFindingsPanel()
	d.procs = newProcPanel(d.list)
	d.locks = newLockView()
	d.load = &loadView{loads: newLoadRing(opts.HistoryLen)}
	d.root = &root{Box: newBox(), d: d}
	d.views = d.newViews()
	d.bindings = d.keyBindings()
	d.keys = keyIndex(d.bindings)
	d.findings.selectionChanged = d.applyHighlight
	d.setFocus(false)
	return d
}

// Root is the primitive to hand to tview.Application.SetRoot.
func (d *Dashboard) Root() tview.Primitive { return d.root }

// Update takes a new frame. While paused it is kept, not shown; the
// sparklines keep counting so unpausing shows the minutes that passed.
func (d *Dashboard) Update(f *snapshot.Frame) {
	if f == nil || f.Snapshot == nil {
		return
	}
	d.hist.push(f)
	d.load.loads.push(f.Load)
	d.stmtSampler.observe(f)
	d.base.observe(f)
	d.latest = f
	if processlistRead(f.Snapshot) {
		d.listed = f
	}
	if d.paused {
		d.pending++
		return
	}
	d.show(f)
}

func (d *Dashboard) show(f *snapshot.Frame) {
	d.frame = f
	d.findings.set(f)
	d.list.threads = threadColsOf(f)
	d.procsFrame = d.processlistFrame(f)
	d.procs.set(f.Snapshot, d.procsFrame.Snapshot.Processlist)
	d.locks.set(f.Snapshot)
	d.applyHighlight()
}

// applyHighlight marks the threads of the selected finding in the processlist.
func (d *Dashboard) applyHighlight() {
	d.list.highlight = nil
	if f := d.findings.selected(); f != nil && len(f.Threads) > 0 {
		d.list.highlight = make(map[int64]bool, len(f.Threads))
		for _, id := range f.Threads {
			d.list.highlight[id] = true
		}
	}
}

// setFocus gives the keys to the findings or the processlist. Focus is kept
// here rather than in tview.Application so tests drive the same path.
func (d *Dashboard) setFocus(findings bool) {
	d.focusFindings = findings
	d.findings.Blur()
	d.procs.Blur()
	if findings {
		d.findings.Focus(func(tview.Primitive) {})
	} else {
		d.procs.Focus(func(tview.Primitive) {})
	}
}

func (d *Dashboard) focused() tview.Primitive {
	if d.focusFindings {
		return d.findings
	}
	return d.procs
}

// say shows a message in the footer for a few seconds.
func (d *Dashboard) say(msg string) {
	d.status = msg
	d.statusAt = time.Now()
}

func (d *Dashboard) openModal(m *modal) { d.modal = m }

// handleKey is the one entry for keys: an open modal takes them all,
// then the dashboard's bindings, then the focused panel (navigation).
func (d *Dashboard) handleKey(ev *tcell.EventKey) {
	if d.modal != nil {
		m := d.modal
		if m.copy != nil && isCopyKey(ev) {
			d.copyClip(m.copy())
			return
		}
		if m.handle(ev) && d.modal == m {
			d.modal = nil
		}
		return
	}
	if v := d.openView(); v != nil && v.handle(ev) {
		return
	}
	if b, ok := d.keys[keyName(ev)]; ok {
		b.run()
		return
	}
	if h := d.focused().InputHandler(); h != nil {
		h(ev, func(tview.Primitive) {})
	}
}

func (d *Dashboard) quit() {
	d.quitting = true
	if d.app != nil {
		d.app.Stop()
	}
}

// togglePause pauses the view (live) or the player (replay).
func (d *Dashboard) togglePause() {
	if d.opts.Player != nil {
		d.opts.Player.TogglePause()
		d.playerPaused = !d.playerPaused
		return
	}
	d.paused = !d.paused
	if !d.paused {
		d.pending = 0
		if d.latest != nil && d.latest != d.frame {
			d.show(d.latest)
		}
	}
}

// keepListedFor is how old a processlist the panel keeps showing, marked
// stale, through ticks that could not read one: two or three missed ticks.
const keepListedFor = 3 * time.Second

// processlistFrame is the frame whose processlist the panel shows for f: f, or,
// for a tick that could not read it (a statement timed out under load),
// the last one read if at most keepListedFor older. A list that blanks for a
// second loses the DBA's place, and a kill by filter asked in that second
// found no thread to kill. A longer gap shows why the list is missing.
func (d *Dashboard) processlistFrame(f *snapshot.Frame) *snapshot.Frame {
	s := f.Snapshot
	if len(s.Processlist) > 0 || processlistRead(s) || d.listed == nil || unavailable(s, snapshot.CollectorProcesslist) == "" {
		return f
	}
	if age := s.Time.Sub(d.listed.Snapshot.Time); age <= 0 || age > keepListedFor {
		return f
	}
	return d.listed
}

// processlistRead says whether s holds a processlist read this tick; a
// source that names no collector states (an import) holds one if it has
// rows.
func processlistRead(s *snapshot.Snapshot) bool {
	st, ok := s.Collectors[snapshot.CollectorProcesslist]
	if !ok {
		return len(s.Processlist) > 0
	}
	return !st.Stale && st.Error == "" && st.Unavailable == ""
}
