package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// altView is a full-width view shown in the processlist's place while its
// key is toggled on. A new view is one entry of altViews.
type altView struct {
	key, title, help string
	lines            func(f *snapshot.Frame) []string
}

func altViews() []altView {
	return []altView{
		{"M", "Replication", "replication view: every channel's source, threads, lag, GTIDs and errors (again: processlist)", replicationLines},
		{"G", "Galera", "Galera view: node state, cluster size, flow control, queues, conflicts (again: processlist)", galeraLines},
	}
}

// viewBindings are the keys that toggle each alternative view.
func (d *Dashboard) viewBindings() []*binding {
	var bb []*binding
	for _, v := range altViews() {
		key := v.key
		bb = append(bb, &binding{[]string{key}, v.help, func() { d.toggleView(key) }})
	}
	return bb
}

func (d *Dashboard) toggleView(key string) {
	if d.view == key {
		d.view = ""
		return
	}
	d.view = key
}

// activeView is the view shown in place of the processlist, if any.
func (d *Dashboard) activeView() (altView, bool) {
	for _, v := range altViews() {
		if v.key == d.view {
			return v, true
		}
	}
	return altView{}, false
}

// drawView draws v in r as a bordered list of lines.
func (d *Dashboard) drawView(screen tcell.Screen, v altView, r rect) {
	if r.w <= 2 || r.h <= 2 {
		return
	}
	box := newBox().SetBorder(true).SetTitle(" " + v.title + " [gray](" + v.key + ": back to processlist)[-] ").
		SetTitleAlign(tview.AlignLeft)
	box.SetRect(r.x, r.y, r.w, r.h)
	box.Draw(screen)
	bx, by, bw, bh := box.GetInnerRect()
	for i, line := range v.lines(d.frame) {
		if i >= bh {
			break
		}
		tview.Print(screen, line, bx, by+i, bw, tview.AlignLeft, textColor)
	}
}
