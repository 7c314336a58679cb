package collectors

import "time"

// A session changes how it is counted (being opened, open, orphan) in one
// step under l.mu: between two steps a reserve on another goroutine (the UI
// opening the on-demand connection while the tick opens the sampling
// session) would count one session too few and open one over the cap.

// adoptReserved makes sess the sampling session and gives back the slot
// reserve took for it.
func (l *serverLink) adoptReserved(sess *session) {
	l.mu.Lock()
	l.sess.Store(sess)
	l.opening--
	l.mu.Unlock()
}

// actionOpened counts the on-demand connection, id, and gives back the
// slot reserve took for it.
func (l *serverLink) actionOpened(id int64) {
	l.mu.Lock()
	l.actionID.Store(id)
	l.actionOpen = true
	l.opening--
	l.mu.Unlock()
}

// actionClosed uncounts the on-demand connection, closed cleanly.
func (l *serverLink) actionClosed() {
	l.mu.Lock()
	l.actionID.Store(0)
	l.actionOpen = false
	l.mu.Unlock()
}

// actionLost turns the on-demand connection into an orphan.
func (l *serverLink) actionLost(now time.Time) {
	l.mu.Lock()
	id := l.actionID.Swap(0)
	l.actionOpen = false
	l.addOrphanLocked(id, now)
	l.mu.Unlock()
}

// abandonSession turns the sampling session into an orphan and returns it
// (nil when there was none).
func (l *serverLink) abandonSession(now time.Time) *session {
	l.mu.Lock()
	defer l.mu.Unlock()
	sess := l.sess.Swap(nil)
	if sess != nil {
		l.addOrphanLocked(sess.ID, now)
	}
	return sess
}
