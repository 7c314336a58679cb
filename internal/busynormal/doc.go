// Package busynormal is a test bed for judging a server against its own
// normal: a throwaway MariaDB kept busy by sysbench at a steady rate with a
// skewed key distribution (row-lock waits and a busy disk are how it runs),
// the monitor's live pipeline recording it, and faults injected one after
// another with recovery between, so that they share one long normal. It
// measures each fault's effect on the server by its own reads, apart from the
// monitor's, so a fault the server never felt cannot pass as one the monitor
// missed.
//
// Only tests import it: the bed needs a server (internal/testdb) and the
// tools beside it (sysbench, mariadb-dump, ip and tc for the network).
package busynormal
