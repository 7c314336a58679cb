package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// actionTimeout bounds EXPLAIN and KILL: the server may be the thing that hangs.
const actionTimeout = 10 * time.Second

// async runs work off the UI goroutine and applies its result on it. Without
// an application (tests, off-screen drawing) it runs inline.
func async[T any](d *Dashboard, work func() T, apply func(T)) {
	if d.app == nil {
		apply(work())
		return
	}
	go func() {
		r := work()
		d.app.QueueUpdateDraw(func() { apply(r) })
	}()
}

// openSelected shows the selected query (processlist) or finding in full.
func (d *Dashboard) openSelected() {
	if d.focusFindings {
		d.openFinding()
		return
	}
	p := d.procs.selected()
	if p == nil {
		d.say("no thread selected")
		return
	}
	m := textModal(newTextView(fmt.Sprintf(" Thread %d ", p.ID), d.processText(p)))
	id, query := p.ID, p.Info
	m.copy = func() clip { return clip{fmt.Sprintf("query of thread %d", id), query} }
	d.openModal(m)
}

func (d *Dashboard) processText(p *snapshot.Process) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[::b]user[::-] %s  [::b]host[::-] %s  [::b]db[::-] %s\n", safeLine(p.User, 100), safeLine(p.Host, 100), safeLine(p.DB, 100))
	fmt.Fprintf(&b, "[::b]command[::-] %s  [::b]state[::-] %s  [::b]time[::-] %s (since %s)\n",
		safeLine(p.Command, 40), safeLine(p.State, 100), age(time.Duration(p.TimeMS)*time.Millisecond), d.startOf(p))
	if p.ExaminedRows > 0 {
		fmt.Fprintf(&b, "[::b]rows examined[::-] %s\n", commas(p.ExaminedRows))
	}
	if p.Progress > 0 {
		fmt.Fprintf(&b, "[::b]progress[::-] %.1f%%\n", p.Progress)
	}
	b.WriteString("\n")
	if p.Info == "" {
		b.WriteString("[gray](no statement)[-]")
	} else {
		b.WriteString(safeText(p.Info))
	}
	return b.String()
}

// startOf is when the thread entered its current state, by the frame's clock.
func (d *Dashboard) startOf(p *snapshot.Process) string {
	if d.frame == nil {
		return "?"
	}
	return d.frame.Time().Add(-time.Duration(p.TimeMS) * time.Millisecond).Format("15:04:05")
}

func (d *Dashboard) openFinding() {
	f := d.findings.selected()
	if f == nil {
		d.say("no finding selected")
		return
	}
	var b strings.Builder
	sev, _ := severityLabel(f.Severity)
	fmt.Fprintf(&b, "[::b]%s %s[::-]  active %s (since %s)\n\n%s\n\n", sev, safeLine(f.ID, 60),
		activeFor(d.frame.Time(), f.Since), f.Since.Format("15:04:05"), safeLine(f.Title, 500))
	for _, e := range f.Evidence {
		b.WriteString("• " + safeText(e) + "\n")
	}
	if f.Advice != "" {
		b.WriteString("\n[::b]advice[::-] " + safeText(f.Advice) + "\n")
	}
	if len(f.Threads) > 0 {
		fmt.Fprintf(&b, "\n[::b]threads[::-] %v (marked * in the processlist)\n", f.Threads)
	}
	d.openModal(textModal(newTextView(" Finding ", b.String())))
}

func (d *Dashboard) explainSelected() {
	p := d.procs.selected()
	switch {
	case p == nil:
		d.say("no thread selected")
		return
	case p.Info == "":
		d.say(fmt.Sprintf("thread %d runs no statement", p.ID))
		return
	}
	id, query := p.ID, p.Info
	if d.opts.Actions == nil {
		d.showRecordedExplain(id)
		return
	}
	tv := newTextView(fmt.Sprintf(" EXPLAIN thread %d ", id), "running EXPLAIN …")
	d.openModal(textModal(tv))
	async(d, func() string {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		rows, err := d.opts.Actions.Explain(ctx, id, query)
		return explainText(query, rows, err)
	}, func(text string) { tv.SetText(text) })
}

// showRecordedExplain shows the plan a collector stored with the snapshot, the
// only EXPLAIN there is without a server.
func (d *Dashboard) showRecordedExplain(id int64) {
	for _, e := range d.frame.Snapshot.Explains {
		if e == nil || e.ThreadID != id {
			continue
		}
		var err error
		if e.Error != "" {
			err = errors.New(e.Error)
		}
		title := fmt.Sprintf(" EXPLAIN thread %d, recorded %s ", id, e.At.Format("15:04:05"))
		d.openModal(textModal(newTextView(title, explainText(e.Statement, e.Rows, err))))
		return
	}
	d.say(fmt.Sprintf("no EXPLAIN recorded for thread %d", id))
}

func explainText(query string, rows []snapshot.ExplainRow, err error) string {
	var b strings.Builder
	b.WriteString(safeText(query) + "\n\n")
	if err != nil {
		b.WriteString("[red]EXPLAIN failed: " + safeLine(err.Error(), 300) + "[-]")
		return b.String()
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tselect_type\ttable\ttype\tpossible_keys\tkey\trows\tExtra")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", safeLine(r.ID, 10), safeLine(r.SelectType, 20),
			safeLine(r.Table, 40), safeLine(r.Type, 12), safeLine(r.PossibleKeys, 60), safeLine(r.Key, 40),
			commas(r.Rows), safeLine(r.Extra, 80))
	}
	tw.Flush()
	return b.String()
}

// confirmKill asks before KILL QUERY (or CONNECTION), naming the thread, its
// user and when its statement started, so the wrong thread is not killed after
// the list moved under the cursor. What the dialog shows is what the kill
// gate holds the server to when y is pressed.
func (d *Dashboard) confirmKill(connection bool) {
	p := d.procs.selected()
	if p == nil {
		d.say("no thread selected")
		return
	}
	what := "KILL QUERY"
	if connection {
		what = "KILL CONNECTION"
	}
	id := p.ID
	if why := d.killRefusal(p, id); why != "" {
		d.say(fmt.Sprintf("thread %d is never killed from here: %s", id, why))
		return
	}
	target := snapshot.KillTargetOf(d.procsFrame, p)
	text := fmt.Sprintf("[::b]%s %d[::-] ?\n\nuser %s  host %s  db %s\nstatement started %s (%s ago)\n%s",
		what, id, safeLine(p.User, 40), safeLine(p.Host, 60), safeLine(p.DB, 40), d.startOf(p),
		age(time.Duration(p.TimeMS)*time.Millisecond), safeLine(p.Info, 200))
	d.openModal(confirmModal(" "+what+" ", text, func() { d.kill(target, connection, what) }))
}

// kill sends KILL QUERY or CONNECTION off the UI goroutine and says how it
// went. The kill gate (Actions.Kill) sends it only if the server still runs
// the session and statement the dialog showed; when it sends nothing, its
// reason is shown in a dialog of its own, not as a passing footer line.
func (d *Dashboard) kill(target snapshot.KillTarget, connection bool, what string) {
	id := target.ID
	async(d, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		return d.opts.Actions.Kill(ctx, target, connection)
	}, func(err error) {
		var refused *snapshot.KillRefused
		switch {
		case errors.As(err, &refused):
			d.say(fmt.Sprintf("%s %d not sent: the thread changed", what, id))
			d.openModal(textModal(newTextView(fmt.Sprintf(" %s %d not sent ", what, id), safeText(refused.Reason))))
		case err != nil:
			d.say(fmt.Sprintf("%s %d failed: %s", what, id, safeLine(err.Error(), 200)))
		default:
			d.say(fmt.Sprintf("%s %d sent", what, id))
		}
	})
}

func (d *Dashboard) openFilter() {
	d.openModal(promptModal("filter: ", d.list.filter.raw, func(text string) {
		f, err := parseFilter(text)
		if err != nil {
			d.say(safeLine(err.Error(), 200))
			return
		}
		d.list.setFilter(f)
		d.procs.reselect()
	}))
}

func (d *Dashboard) clearFilter() {
	if d.list.filter.empty() {
		return
	}
	d.list.setFilter(procFilter{})
	d.procs.reselect()
	d.say("filter cleared")
}
