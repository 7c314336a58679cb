// Package picture turns what the dashboard drew onto a tcell.SimulationScreen
// into a file a person can look at — plain text, SVG or PNG (Write picks by
// extension) — cell for cell, with the colours the terminal would show.
package picture
