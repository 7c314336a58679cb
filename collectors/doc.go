// Package collectors samples a live MySQL/MariaDB server into Snapshots: one
// file per source (processlist, status, variables, InnoDB, replica, EXPLAIN),
// a scheduler that runs them on one connection per tick, and the mysql-client
// style connection options.
package collectors
