package collectors

import "github.com/mytop-go/mytop-go/snapshot"

// publishedThread is what the UI's EXPLAIN reads of a thread in the latest
// tick, from its own goroutine.
type publishedThread struct {
	ID   int64
	DB   string
	Info string
}

// publish keeps the threads of the snapshot Next is about to return, for
// EXPLAIN. A copy: the snapshot itself is masked in place by whoever takes
// it (the pipeline rewrites each statement's text), and a reader on another
// goroutine would race that write.
func (l *Live) publish(s *snapshot.Snapshot) {
	threads := make([]publishedThread, len(s.Processlist))
	for i := range s.Processlist {
		p := &s.Processlist[i]
		threads[i] = publishedThread{ID: p.ID, DB: p.DB, Info: p.Info}
	}
	l.lastThreads.Store(&threads)
}

// lastThread finds a thread in the latest tick; safe from any goroutine.
func (l *Live) lastThread(id int64) (publishedThread, bool) {
	if ts := l.lastThreads.Load(); ts != nil {
		for _, t := range *ts {
			if t.ID == id {
				return t, true
			}
		}
	}
	return publishedThread{}, false
}
