package recording

import "github.com/mytop-go/mytop-go/snapshot"

// redactedLocks copies l with the last statements of idle threads redacted.
func redactedLocks(l *snapshot.Locks) *snapshot.Locks {
	if l == nil {
		return nil
	}
	c := *l
	c.Threads = make([]snapshot.LockThread, len(l.Threads))
	for i, t := range l.Threads {
		t.LastStatement = snapshot.Redact(t.LastStatement)
		c.Threads[i] = t
	}
	return &c
}

// lockQueryTexts are the statements the lock part quotes.
func lockQueryTexts(l *snapshot.Locks, add func(string)) {
	if l == nil {
		return
	}
	for _, t := range l.Threads {
		add(t.LastStatement)
	}
}

// redactedRootBlockers scrubs the statements root blockers quote.
func redactedRootBlockers(rb []snapshot.RootBlocker, queries []string) []snapshot.RootBlocker {
	if len(rb) == 0 {
		return rb
	}
	out := make([]snapshot.RootBlocker, len(rb))
	for i, r := range rb {
		r.Statement = scrubQuotes(r.Statement, queries)
		out[i] = r
	}
	return out
}
