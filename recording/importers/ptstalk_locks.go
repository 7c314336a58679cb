package importers

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// pt-stalk's -lock-waits holds, once a second while something waits, its
// join over the lock tables: on MySQL 5.x and MariaDB a summary per blocker
// (who_blocks) and then one row per waiting request and lock ahead of it
// (INNODB_LOCK_WAITS with INNODB_TRX); on MySQL 8 the same from
// sys.innodb_lock_waits or performance_schema.data_lock_waits. A second in
// which nothing waits leaves nothing, and only some versions write TS
// markers. -transactions holds INNODB_TRX (and INNODB_LOCKS,
// INNODB_LOCK_WAITS) for the same seconds: the transactions' start and
// wait-start times, rows locked and the requested locks' index and mode.
// Each sample becomes the Snapshot.Locks the live lock collector would have
// sent, its edges made by the same snapshot.RowWaitSet.

// ptTrx is what -transactions says of the transactions, by id; a
// transaction's start, its wait's start and its requested lock do not
// change while it waits, so the latest row read stands for every sample.
type ptTrx struct {
	byID    map[string]parse.CapturedTrx
	objects map[string]snapshot.RowLockObject // lock id -> what it locks
	lockOf  map[string]string                 // waiting trx id -> requested lock id
}

func (r *ptReader) readTransactions() (ptTrx, error) {
	t := ptTrx{byID: map[string]parse.CapturedTrx{}, objects: map[string]snapshot.RowLockObject{},
		lockOf: map[string]string{}}
	path, ok := r.g.files["transactions"]
	if !ok {
		return t, nil
	}
	rows := parse.VerticalRows{Emit: func(row parse.VerticalRow) {
		if trx, ok := parse.ParseCapturedTrx(row, r.loc); ok {
			t.byID[trx.ID] = trx
			if trx.RequestedLock != "" {
				t.lockOf[trx.ID] = trx.RequestedLock
			}
			return
		}
		if id, obj, ok := parse.ParseCapturedLock(row); ok {
			t.objects[id] = obj
			return
		}
		if req, lock := row.Fields["requesting_trx_id"], row.Fields["requested_lock_id"]; req != "" && lock != "" {
			t.lockOf[req] = lock
		}
	}}
	err := r.in.eachLine(path, func(n int, line string) {
		if _, ok := parseTSMarker(line, r.loc); !ok {
			rows.Line(n, line)
		}
	})
	rows.Flush()
	return t, err
}

// ptLockSample is one second's listing.
type ptLockSample struct {
	at      time.Time // from a TS marker; zero when the file has none
	line    int
	summary int // pt-stalk's per-blocker summary rows
	waits   []parse.CapturedLockWait
	source  string
}

// readLockWaits reads -lock-waits into one Locks per sample.
func (r *ptReader) readLockWaits(clock []time.Time, base time.Time) error {
	path, ok := r.g.files["lock-waits"]
	if !ok {
		return nil
	}
	trx, err := r.readTransactions()
	if err != nil {
		return err
	}
	samples, bad, err := r.cutLockWaits(path)
	if err != nil {
		return err
	}
	r.tl.locksRead = true
	read := 0
	estimated := false
	var prev time.Time // the listing placed before, in file (so time) order
	for i, s := range samples {
		if len(s.waits) == 0 {
			continue
		}
		at := s.at
		if at.IsZero() {
			at = trx.anchor(s)
		}
		if at.IsZero() {
			// No stamp, and no waiter -transactions saw waiting (a wait
			// shorter than its turn): just after the listing before.
			at, estimated = estimatedListing(r.tl.locks, prev, onClock(clock, base, i)), true
		}
		r.tl.locks[at.Unix()] = ptLocks(s, trx, at)
		prev = at
		read++
	}
	if estimated {
		r.estimated = append(r.estimated, "lock-waits")
	}
	name := filepath.Base(path)
	switch {
	case read == 0 && bad > 0:
		r.sess.Notes = append(r.sess.Notes, fmt.Sprintf("%s: no lock wait could be read (%d rows cut short or garbled): no lock tree", name, bad))
	case bad > 0:
		r.sess.Notes = append(r.sess.Notes, fmt.Sprintf("%s: %d rows cut short or garbled were left out; the lock tree of their seconds may miss waiters", name, bad))
	case read > 0:
		r.sess.Notes = append(r.sess.Notes, fmt.Sprintf("%s: %d samples of row-lock waits read into the lock tree", name, read))
	}
	return nil
}

// cutLockWaits cuts the file into samples: at TS markers when it has them,
// else where row numbering restarts at 1 (pt-stalk's summary and its wait
// listing of one second make one sample). bad counts rows left out.
func (r *ptReader) cutLockWaits(path string) (samples []ptLockSample, bad int, err error) {
	stamped := false
	cur := func() *ptLockSample { return &samples[len(samples)-1] }
	start := func(at time.Time, line int) { samples = append(samples, ptLockSample{at: at, line: line}) }
	rows := parse.VerticalRows{
		Emit: func(row parse.VerticalRow) {
			summary := parse.IsLockWaitSummary(row)
			if len(samples) == 0 || !stamped && row.N == 1 && (summary || cur().summary == 0 || len(cur().waits) > 0) {
				start(time.Time{}, row.Line)
			}
			if summary {
				cur().summary++
				return
			}
			w, ok, err := parse.ParseCapturedLockWait(row)
			switch {
			case err != nil:
				r.sess.Problems.add(path, row.Line, err.Error())
				bad++
			case !ok:
				r.sess.Problems.add(path, row.Line, fmt.Sprintf("row %d is no lock wait (no waiting and blocking transaction)", row.N))
				bad++
			default:
				s := cur()
				s.waits = append(s.waits, w)
				if s.source == "" {
					s.source = lockWaitSource(row)
				}
			}
		},
		Stray: func(n int, line string) {
			r.sess.Problems.add(path, n, fmt.Sprintf("text outside a lock wait row: %.40q", strings.TrimSpace(line)))
			bad++
		},
	}
	err = r.in.eachLine(path, func(n int, line string) {
		if t, ok := parseTSMarker(line, r.loc); ok {
			rows.Flush()
			stamped = true
			start(t.In(r.loc), n)
			return
		}
		rows.Line(n, line)
	})
	rows.Flush()
	return samples, bad, err
}

// lockWaitSource names the table a listing's rows come from, as the live
// collector names its source.
func lockWaitSource(row parse.VerticalRow) string {
	f := row.Fields
	switch {
	case f["waiting_pid"] != "":
		return "sys.innodb_lock_waits (pt-stalk lock-waits)"
	case f["requesting_engine_transaction_id"] != "":
		return "performance_schema.data_lock_waits (pt-stalk lock-waits)"
	}
	return "information_schema.INNODB_LOCK_WAITS (pt-stalk lock-waits)"
}

// anchor is the server's time of an unstamped sample: a waiter's wait start
// (-transactions) plus how long it had waited then; zero when unknown.
func (t ptTrx) anchor(s ptLockSample) time.Time {
	var at time.Time
	for _, w := range s.waits {
		trx, ok := t.byID[w.WaitingTrx]
		if !ok || trx.WaitStarted.IsZero() || w.WaitS < 0 {
			continue
		}
		if c := trx.WaitStarted.Add(time.Duration(w.WaitS) * time.Second); c.After(at) {
			at = c
		}
	}
	return at
}

// estimatedListing places a listing with no clock of its own: the first
// second after the listing before that no listing holds, or, before any,
// where the status clock puts it. pt-stalk writes a listing only in the
// seconds something waits, so its index says nothing of its time.
func estimatedListing(placed map[int64]*snapshot.Locks, prev, fallback time.Time) time.Time {
	if prev.IsZero() {
		return fallback
	}
	at := prev.Add(time.Second)
	for placed[at.Unix()] != nil {
		at = at.Add(time.Second)
	}
	return at
}

// ptLocks builds the sample's Locks as the live collector does.
func ptLocks(s ptLockSample, trx ptTrx, at time.Time) *snapshot.Locks {
	var set infer.RowWaitSet
	thread := map[string]int64{}
	waitS := map[int64]int64{}
	objects := map[string]snapshot.RowLockObject{}
	threads := map[int64]*snapshot.LockThread{}
	var order []int64
	addThread := func(id int64, trxID string, ageS, rows int64, waiting bool) {
		if id == 0 {
			return
		}
		lt := threads[id]
		if lt == nil {
			lt = &snapshot.LockThread{ID: id, TrxAgeS: -1}
			threads[id] = lt
			order = append(order, id)
		}
		c, known := trx.byID[trxID]
		switch {
		case ageS >= 0:
			lt.TrxAgeS = ageS
		case known && !c.Started.IsZero() && !at.Before(c.Started):
			lt.TrxAgeS = int64(at.Sub(c.Started) / time.Second)
		}
		switch {
		case rows >= 0:
			lt.RowsLocked = rows
		case known:
			lt.RowsLocked = c.RowsLocked
		}
		switch {
		case waiting:
			lt.TrxState = "LOCK WAIT"
		case known && lt.TrxState == "":
			lt.TrxState = c.State
		}
	}
	for _, w := range s.waits {
		if w.Waiter == 0 {
			w.Waiter = trx.byID[w.WaitingTrx].Thread
		}
		if w.Blocker == 0 {
			w.Blocker = trx.byID[w.BlockingTrx].Thread
		}
		thread[w.WaitingTrx], thread[w.BlockingTrx] = w.Waiter, w.Blocker
		lockID := w.LockID
		if lockID == "" {
			lockID = trx.lockOf[w.WaitingTrx]
		}
		if o, ok := trx.objects[lockID]; ok && lockID != "" {
			objects[lockID] = o
		}
		set.Add(w.WaitingTrx, w.BlockingTrx, lockID, snapshot.NewRowLockObject(w.Table, w.Index, w.Mode))
		if w.WaitS >= 0 && w.Waiter != 0 {
			waitS[w.Waiter] = w.WaitS
		}
		addThread(w.Waiter, w.WaitingTrx, w.WaiterTrxAgeS, w.WaiterRowsLocked, true)
		addThread(w.Blocker, w.BlockingTrx, w.BlockerTrxAgeS, w.BlockerRowsLocked, false)
	}
	l := &snapshot.Locks{Sources: map[snapshot.LockKind]string{snapshot.LockRow: s.source}}
	l.Waits = set.Edges(infer.RowWaitThreads{Thread: thread, WaitS: waitS}, objects)
	for _, id := range order {
		l.Threads = append(l.Threads, *threads[id])
	}
	if len(l.Waits) == 0 {
		l.Notes = append(l.Notes, "row locks: the captured lock waits name no connection ids; waiters not shown")
	}
	return l
}
