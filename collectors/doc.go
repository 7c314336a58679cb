// Package collectors samples a live MySQL/MariaDB server into Snapshots: one
// file per source (processlist, status, variables, InnoDB, replica, EXPLAIN,
// host) and a scheduler that runs them on one connection per tick; while
// the status and processlist reads are slow on a healthy server, the
// processlist is read on a companion session beside the status
// (companion.go). The connection comes from internal/connopt, which reads
// the mysql client's options.
package collectors
