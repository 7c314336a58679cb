package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDInnoDBThreadQueue names the findings of innodb_thread_queue: a contract
// (the README's findings table), stable, never reused.
const IDInnoDBThreadQueue = "innodb_thread_queue"

// innoDBThreadQueueRule is innodb_thread_queue in the rules table (rule.go).
// CONC-03: "sustained", the PTS 5 x 1 s of state pile-ups.
var innoDBThreadQueueRule = rule{id: IDInnoDBThreadQueue, check: checkInnoDBThreadQueue, persist: persistFor(5*time.Second, 5*time.Second)}

// With innodb_thread_concurrency > 0, threads beyond the limit queue before
// entering InnoDB (CONC-03). Only servers that still implement the admission
// queue print "N queries in queue" (gone in MariaDB 10.5+).
func checkInnoDBThreadQueue(w *window, _ *Config) verdict {
	if r := innodbNA(w); r != "" {
		return notApplicable(r)
	}
	if w.snap.InnoDB == nil || !w.snap.InnoDB.Rows.Present {
		return quiet()
	}
	rows := w.snap.InnoDB.Rows
	if !rows.QueueShown {
		return notApplicable("server does not print \"queries in queue\" (no innodb_thread_concurrency admission, e.g. MariaDB 10.5+)")
	}
	if rows.QueriesInQueue <= 0 {
		return quiet()
	}
	ev := []string{fmt.Sprintf("InnoDB: %d queries inside, %d queries in queue", rows.QueriesInside, rows.QueriesInQueue)}
	if v, ok := w.variable("innodb_thread_concurrency"); ok {
		ev = append(ev, "innodb_thread_concurrency="+v)
	}
	if r, ok := w.snap.StatusInt("Threads_running"); ok {
		ev = append(ev, fmt.Sprintf("Threads_running %d", r))
	}
	ev = appendNonEmpty(ev, w.hostFigures())
	return raise(snapshot.Warning, fmt.Sprintf("%d queries queue to enter InnoDB", rows.QueriesInQueue), ev,
		"Queries wait for an innodb_thread_concurrency slot: if the CPUs have room, raise "+
			"innodb_thread_concurrency (0 = no limit); otherwise find what keeps the running queries long.", nil)
}
