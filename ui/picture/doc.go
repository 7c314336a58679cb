// Package picture turns what the dashboard drew onto a tcell.SimulationScreen
// into a file a person can look at: plain text, SVG or PNG, cell for cell,
// with the colours and attributes the terminal would show.
package picture
