package collectors

import (
	"time"
)

// refusalTTL is how long a refused source is left alone before it is asked
// again: a GRANT given mid-incident, or a plugin installed, is picked up
// within a minute (the next read after the refusal expires).
const refusalTTL = 30 * time.Second

// Server errors that are not about the source at all: the statement was
// killed, the temporary disk is full, a lock wait ran out. They are shown,
// never remembered as "unavailable".
const (
	errQueryInterrupted = 1317 // KILL QUERY, or the server shutting down
	errRecordFileFull   = 1114 // "The table ... is full" (an on-disk temporary table)
	errDiskFull         = 1021
	errLockWaitTimeout  = 1205
	errColumnAccess     = 1143
	errUnknownDatabase  = 1049
	errDeadlock         = 1213
	errServerShutdown   = 1053
	errOutOfMemory      = 1037
	errOutOfSortMemory  = 1038
	errCantCreateThread = 1135
)

// rememberRefusal reports whether a server's refusal says the source cannot
// be read by this user on this server (a missing privilege, a missing table),
// as opposed to a failure of this one read, which is tried again next time.
func rememberRefusal(err error) bool {
	switch serverErrno(err) {
	case errSpecificAccessDenied, errTableAccessDenied, errColumnAccess, errDBAccessDenied, errAccessDenied,
		errNoSuchTable, errUnknownTable, errUnknownDatabase:
		return true
	}
	return false
}

// refusals remembers why sources were given up on, each for refusalTTL.
type refusals map[string]refusal

type refusal struct {
	reason string
	at     time.Time
}

// get returns the remembered reason for source.
func (r refusals) get(source string) (string, bool) {
	x, ok := r[source]
	return x.reason, ok
}

func (r refusals) set(source, reason string, now time.Time) {
	r[source] = refusal{reason, now}
}

// expire forgets the refusals older than refusalTTL; it reports whether it
// forgot any.
func (r refusals) expire(now time.Time) bool {
	forgot := false
	for k, x := range r {
		if now.Sub(x.at) >= refusalTTL {
			delete(r, k)
			forgot = true
		}
	}
	return forgot
}
