// Package visibility says what the monitor can and cannot see on one server:
// each blind spot, what it costs the DBA (the panels and rules it leaves
// blind) and the exact grant or setting that fixes it. `mytop-go check`
// prints it for scripts and tickets.
package visibility
