package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// tview's default theme paints white on black; a DBA's terminal may be light.
// Everything here uses the terminal's own colours, and colour is only added
// for meaning (severity, long-running rows), never needed to read a value.

const textColor = tcell.ColorDefault

func newBox() *tview.Box {
	return tview.NewBox().SetBackgroundColor(tcell.ColorDefault).
		SetBorderColor(tcell.ColorDefault).SetTitleColor(tcell.ColorDefault)
}

func newTable() *tview.Table {
	t := tview.NewTable()
	t.SetBackgroundColor(tcell.ColorDefault)
	return t
}

func plainTextView() *tview.TextView {
	tv := tview.NewTextView().SetTextColor(tcell.ColorDefault)
	tv.SetBackgroundColor(tcell.ColorDefault)
	tv.SetBorderColor(tcell.ColorDefault).SetTitleColor(tcell.ColorDefault)
	return tv
}

func cell(text string) *tview.TableCell {
	return tview.NewTableCell(text).SetTextColor(textColor)
}
