package collectors

import (
	"sync/atomic"
	"syscall"
)

// A busy connection's thread is read every tick, two files each, and an
// open, a read and a close of a procfs file were three system calls where
// one would do: a procfs stat or io file read again from offset 0 is
// generated afresh, so the reader keeps the descriptors of the files it read
// last tick open and preads them. A descriptor pins the thread it was opened
// for (its struct pid, not its number): once that thread exits the read
// fails with ESRCH, the descriptor is closed and the path opened again, so a
// recycled thread id is never read through a stale descriptor as if it
// were the old thread.
//
// Descriptors are a process-wide resource, and `serve` runs a reader per
// server: all readers together keep at most maxCachedFDs open; past that a
// read opens and closes as before.

// taskFile names one procfs file of a thread (tid 0: of the process).
type taskFile struct {
	pid  int
	tid  int64
	file string
}

// cachedFD is an open descriptor and the round it was last read in.
type cachedFD struct {
	fd   int
	used uint64
}

// maxCachedFDs bounds the descriptors kept open by all readers; keepRounds
// is how many rounds an unread one stays open (a still background thread is
// read every idleReadEvery ticks).
const (
	maxCachedFDs = 1024
	keepRounds   = idleReadEvery + 1
)

var cachedFDs atomic.Int64

// readCached reads f through its kept descriptor; ok is false when it has
// none or the descriptor failed (and is now closed).
func (r *procReader) readCached(f taskFile) (n int, ok bool) {
	c, found := r.fds[f]
	if !found {
		return 0, false
	}
	for {
		n, err := syscall.Pread(c.fd, r.buf, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			r.drop(f, c.fd)
			return 0, false
		}
		c.used = r.round
		r.fds[f] = c
		return n, true
	}
}

// keep holds fd open for f if the process-wide budget allows and root is a
// real procfs; false when the caller must close it. A plain directory (the
// tests' fake /proc) is not: a removed or rewritten file there stays
// readable through an open descriptor.
func (r *procReader) keep(root string, f taskFile, fd int) bool {
	if !r.onProcfs(root) {
		return false
	}
	if cachedFDs.Add(1) > maxCachedFDs {
		cachedFDs.Add(-1)
		return false
	}
	if r.fds == nil {
		r.fds = map[taskFile]cachedFD{}
	}
	r.fds[f] = cachedFD{fd: fd, used: r.round}
	return true
}

// procSuperMagic is procfs's f_type in statfs.
const procSuperMagic = 0x9fa0

func (r *procReader) onProcfs(root string) bool {
	if r.checkedRoot != root || r.checkedRoot == "" {
		var st syscall.Statfs_t
		r.checkedRoot, r.procfs = root, syscall.Statfs(root, &st) == nil && st.Type == procSuperMagic
	}
	return r.procfs
}

func (r *procReader) drop(f taskFile, fd int) {
	syscall.Close(fd)
	delete(r.fds, f)
	cachedFDs.Add(-1)
}

// endRound closes the descriptors not read for keepRounds rounds (threads
// gone idle or ended, a mysqld restarted under another pid); the collector
// calls it once per tick.
func (r *procReader) endRound() {
	r.round++
	for f, c := range r.fds {
		if r.round-c.used > keepRounds {
			r.drop(f, c.fd)
		}
	}
}

// closeAll closes every kept descriptor (the source is closing).
func (r *procReader) closeAll() {
	for f, c := range r.fds {
		r.drop(f, c.fd)
	}
}
