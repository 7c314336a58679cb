// Package ui is mytop-go's terminal dashboard (tview/tcell). It draws Frames and
// knows nothing about where they come from: live collectors, a recording or an
// imported capture all look the same here; server actions go through Options.
package ui
