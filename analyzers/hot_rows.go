package analyzers

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Hot rows: many transactions queue, each for a moment, on the same few
// rows (a counter, a balance, a sequence table, a "last seen" column). No
// single wait lasts long enough for row_lock_waits (10 s), yet the server
// spends seconds of every second waiting: the monthly-incident reproductions's reproduction, 24
// clients incrementing one counter row, made 6,146 row-lock waits/s and
// 9.5 s of lock wait per second with 17 sessions in LOCK WAIT at any moment.
// It is judged from Δ Innodb_row_lock_waits and Δ Innodb_row_lock_time
// (TRX-03's counters), named from the lock tables the lock collector reads
// when something waits (INNODB_LOCK_WAITS/INNODB_LOCKS on MariaDB,
// data_lock_waits on MySQL 8), the InnoDB status's record lines, and the
// waiters' statements in the processlist.
//
// The rule also says when innodb_lock_wait_timeout is below row_lock_waits'
// floor (RowLockWaitWarn): waits then fail with error 1205 before that rule
// can see one, so long waits surface only here.

const (
	rowLockWaits = "Innodb_row_lock_waits"
	rowLockTime  = "Innodb_row_lock_time" // milliseconds, added when a wait ends
)

// HotRowsConfig holds hot_rows' thresholds. Embedded in Config.
type HotRowsConfig struct {
	// HotRowWaitsMin: row-lock waits per second (Δ Innodb_row_lock_waits)
	// at or above which waiting is a pattern (UNKNOWN; design: the monthly-incident reproductions's
	// hot counter made 6,146/s, a healthy 8-client OLTP load on random rows
	// of a 10,000-row table makes under 5/s). Trap: one long wait ending in
	// the interval adds its whole length to Innodb_row_lock_time (a 50 s
	// timeout reads as 50 s of waiting per second): one wait is
	// row_lock_waits' to judge, not a hot row.
	HotRowWaitsMin float64
	// HotRowLockTimeWarn / Crit: seconds of row-lock wait per second
	// (Δ Innodb_row_lock_time / 1000), i.e. how many sessions wait on
	// average. One session always waiting is a warning, five a critical
	// (UNKNOWN; design: the reproduction waits 9.5 s/s; the healthy load
	// above under 0.05 s/s). Trap: a count of waits alone calls a burst of
	// 0.1 ms waits an incident; the time says what they cost.
	HotRowLockTimeWarn float64
	HotRowLockTimeCrit float64
	// HotRowTimeoutNearShare: with innodb_lock_wait_timeout below
	// RowLockWaitWarn, a waiter that has waited this share of the timeout
	// is about to fail with error 1205, which row_lock_waits can never see
	// (design). Trap: a timeout set low on purpose while nobody waits long
	// raises nothing; only waits that near it do.
	HotRowTimeoutNearShare float64
}

func (c *HotRowsConfig) defaults() {
	*c = HotRowsConfig{HotRowWaitsMin: 20, HotRowLockTimeWarn: 1, HotRowLockTimeCrit: 5, HotRowTimeoutNearShare: 0.5}
}

// IDHotRows names the findings of hot_rows: a contract (the README's findings
// table), stable, never reused.
const IDHotRows = "hot_rows"

// hotRowsRule is hot_rows in the rules table (rule.go). Counter rates must
// hold 3 s (a 1-s burst of waits is a batch, not a hot row), and be gone 5 s
// to clear.
var hotRowsRule = rule{id: IDHotRows, check: checkHotRows,
	persist: persistFor(3*time.Second, 5*time.Second)}

func checkHotRows(w *window, c *Config) verdict {
	if r := w.statusNA(rowLockWaits, rowLockTime); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	waits, ok1 := w.rate(rowLockWaits)
	ms, ok2 := w.rate(rowLockTime)
	hot := ok1 && ok2 && waits >= c.HotRowWaitsMin && ms/1000 >= c.HotRowLockTimeWarn
	timeout, short := shortLockWaitTimeout(w, c)
	waiters := hotRowWaiters(w)
	if !hot {
		if short && nearTimeout(waiters, timeout, c) {
			// The holder is the one to find here: name the lock tree's roots.
			return withRootBlockers(w, raise(snapshot.Warning, fmt.Sprintf("row-lock waits reach "+
				"innodb_lock_wait_timeout=%s and fail before row_lock_waits (%s) can see them", fmtDuration(timeout),
				fmtDuration(c.RowLockWaitWarn)), hotRowEvidence(w, waits, ms, waiters, timeout, short), timeoutAdvice,
				waiterThreads(waiters)), snapshot.LockRow)
		}
		return quiet()
	}
	sev := snapshot.Warning
	if ms/1000 >= c.HotRowLockTimeCrit {
		sev = snapshot.Critical
	}
	title := fmt.Sprintf("hot rows: %s row-lock waits/s, %.1f s of lock wait per second (%.1f ms each)",
		fmtRate(waits), ms/1000, ms/waits)
	if obj, key, n := hottestRecord(waiters); obj != "" && n > 1 {
		title += " on " + obj
		if key != "" {
			title += " " + key
		}
	}
	ev := hotRowEvidence(w, waits, ms, waiters, timeout, short)
	return raise(sev, title, ev, hotRowAdvice, waiterThreads(waiters))
}

const hotRowAdvice = "Many transactions update the same rows one after another. Shorten the time each holds " +
	"the row (update the hot row last, just before COMMIT, and commit at once); spread the counter over N " +
	"rows (id, slot) and SUM them; or accumulate in the application and write in batches. Index the WHERE " +
	"columns so statements lock only the rows they change."

const timeoutAdvice = "Waits fail with error 1205 (lock wait timeout) before a long-wait alarm can name them: " +
	"find the holder (the lock tree, key L) and shorten its transactions; raise innodb_lock_wait_timeout to at " +
	"least 10 s only if the applications retry on 1205."

// hotWaiter is one waiting thread and what it waits for.
type hotWaiter struct {
	thread  int64
	blocker int64
	object  string // "shop.counter PRIMARY"
	key     string // "key 1", from the InnoDB status's record line
	waitS   int64
	query   string
}

// hotRowWaiters joins the lock tables' edges, the InnoDB transaction list
// and its record lines: one entry per waiting thread.
func hotRowWaiters(w *window) []hotWaiter {
	var out []hotWaiter
	seen := map[int64]int{}
	add := func(h hotWaiter) {
		if h.thread == 0 {
			return
		}
		if i, ok := seen[h.thread]; ok {
			o := &out[i]
			o.object = cmp.Or(o.object, h.object)
			o.blocker = max(o.blocker, h.blocker)
			o.waitS = max(o.waitS, h.waitS)
			return
		}
		seen[h.thread] = len(out)
		out = append(out, h)
	}
	if l := w.snap.Locks; l != nil {
		for _, e := range l.Waits {
			if e.Kind == snapshot.LockRow {
				add(hotWaiter{thread: e.Waiter, blocker: e.Blocker, object: e.Object, waitS: e.WaitS})
			}
		}
	}
	if in := w.snap.InnoDB; in != nil {
		for _, t := range in.Transactions.Trx {
			if t.LockWait {
				add(hotWaiter{thread: t.ThreadID, waitS: t.LockWaitSeconds, query: t.Query})
			}
		}
		for thread, r := range waitedRecords(in.Raw) {
			if i, ok := seen[thread]; ok {
				out[i].object = cmp.Or(out[i].object, r.object)
				out[i].key = r.key
			}
		}
	}
	// The InnoDB status is read every few seconds: a waiter it does not list
	// yet takes the key the latest status with waits gives its index.
	if keys := recentRecordKeys(w); len(keys) > 0 {
		for i := range out {
			if out[i].key == "" && out[i].object != "" {
				out[i].key = keys[out[i].object]
			}
		}
	}
	pv := w.processes()
	for i := range out {
		if p := pv.byID(out[i].thread); p != nil && p.Info != "" {
			out[i].query = p.Info
		}
	}
	return out
}

// recentRecordKeys maps each index to the key most waited for in the newest
// InnoDB status of the sighting window that lists waits.
func recentRecordKeys(w *window) map[string]string {
	frames := w.recent(max(w.cfg.SightingWindow, 1))
	for i := len(frames) - 1; i >= 0; i-- {
		in := frames[i].Snapshot.InnoDB
		if in == nil {
			continue
		}
		recs := waitedRecords(in.Raw)
		if len(recs) == 0 {
			continue
		}
		counts := map[waitedRecord]int{}
		for _, r := range recs {
			if r.key != "" {
				counts[r]++
			}
		}
		best := map[string]string{}
		n := map[string]int{}
		for r, c := range counts {
			if c > n[r.object] || (c == n[r.object] && r.key < best[r.object]) {
				best[r.object], n[r.object] = r.key, c
			}
		}
		return best
	}
	return nil
}

func waiterThreads(ws []hotWaiter) []int64 {
	var ids []int64
	for _, h := range ws {
		if len(ids) == maxThreadIDs {
			break
		}
		ids = append(ids, h.thread)
	}
	return ids
}

// hottestRecord is the object (and key, when known) most waiters wait for.
func hottestRecord(ws []hotWaiter) (object, key string, n int) {
	counts := map[[2]string]int{}
	for _, h := range ws {
		if h.object != "" {
			counts[[2]string{h.object, h.key}]++
		}
	}
	for k, c := range counts {
		if c > n || (c == n && k[0]+k[1] < object+key) {
			object, key, n = k[0], k[1], c
		}
	}
	return object, key, n
}

func hotRowEvidence(w *window, waits, ms float64, ws []hotWaiter, timeout time.Duration, short bool) []string {
	ev := []string{fmt.Sprintf("%s %s/s, %s %.0f ms/s: %.1f sessions waiting on average", rowLockWaits,
		fmtRate(waits), rowLockTime, ms, ms/1000)}
	if n, ok := w.snap.StatusInt("Innodb_row_lock_current_waits"); ok {
		ev = append(ev, fmt.Sprintf("Innodb_row_lock_current_waits %d in this sample", n))
	}
	if len(ws) > 0 {
		s := fmt.Sprintf("%d threads in LOCK WAIT now: %s", len(ws), joinIDs(waiterThreads(ws), 20))
		if src := lockSource(w); src != "" {
			s += " (" + src + ")"
		}
		ev = append(ev, s)
	}
	if obj, key, n := hottestRecord(ws); obj != "" {
		s := fmt.Sprintf("most waited on: %s", obj)
		if key != "" {
			s += " " + key
		}
		ev = append(ev, s+fmt.Sprintf(" (%d of %d waiters)", n, len(ws)))
	}
	ev = append(ev, contendingStatements(w, ws)...)
	if short {
		ev = append(ev, fmt.Sprintf("innodb_lock_wait_timeout=%s is below row_lock_waits' %s floor: a wait "+
			"fails with error 1205 before that rule can name it", fmtDuration(timeout),
			fmtDuration(w.cfg.RowLockWaitWarn)))
	}
	return ev
}

func lockSource(w *window) string {
	if l := w.snap.Locks; l != nil {
		return l.Sources[snapshot.LockRow]
	}
	if w.snap.InnoDB != nil && w.snap.InnoDB.Transactions.Present {
		return "SHOW ENGINE INNODB STATUS"
	}
	return ""
}

// contendingStatements names the waiters' statements by fingerprint with
// users and hosts: "17 × update shop.counter set n = n + ? where id = ? (app@10.0.0.12)".
func contendingStatements(w *window, ws []hotWaiter) []string {
	counts := map[string]int{}
	who := map[string][]string{}
	for _, h := range ws {
		if h.query == "" {
			continue
		}
		fp := statement(h.query)
		counts[fp]++
		if p := w.processes().byID(h.thread); p != nil {
			if u := userHost(p); !slices.Contains(who[fp], u) && len(who[fp]) < 3 {
				who[fp] = append(who[fp], u)
			}
		}
	}
	var out []string
	for _, k := range mostCounted(counts, maxStatements) {
		s := fmt.Sprintf("contending: %d × %s", counts[k], k)
		if len(who[k]) > 0 {
			s += " (" + strings.Join(who[k], ", ") + ")"
		}
		out = append(out, s)
	}
	return out
}

// shortLockWaitTimeout reports innodb_lock_wait_timeout when it is below
// row_lock_waits' floor.
func shortLockWaitTimeout(w *window, c *Config) (time.Duration, bool) {
	v, ok := w.snap.VarFloat("innodb_lock_wait_timeout")
	if !ok || v <= 0 {
		return 0, false
	}
	d := time.Duration(v * float64(time.Second))
	return d, d < c.RowLockWaitWarn
}

// nearTimeout: some waiter has waited HotRowTimeoutNearShare of the timeout.
func nearTimeout(ws []hotWaiter, timeout time.Duration, c *Config) bool {
	for _, h := range ws {
		if time.Duration(h.waitS)*time.Second >= time.Duration(float64(timeout)*c.HotRowTimeoutNearShare) && h.waitS > 0 {
			return true
		}
	}
	return false
}

// waitedRecord is what one waiter's lock request names in the InnoDB status.
type waitedRecord struct{ object, key string }

// waitedRecords reads, per waiting thread, the record its lock request waits
// for from the raw InnoDB status: after "------- TRX HAS BEEN WAITING",
// "RECORD LOCKS ... index PRIMARY of table `shop`.`counter` ..." and the
// record's first field " 0: len 4; hex 80000001; asc     ;;" (the key: a
// signed integer stored with its sign bit flipped, else printable text).
func waitedRecords(raw string) map[int64]waitedRecord {
	if raw == "" || !strings.Contains(raw, "TRX HAS BEEN WAITING") {
		return nil
	}
	out := map[int64]waitedRecord{}
	var thread int64
	stage := 0 // 1: wait header seen, 2: lock line read, expecting the record
	var cur waitedRecord
	for _, line := range strings.Split(raw, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "---TRANSACTION "):
			thread, stage = 0, 0
		case thread == 0 && (strings.HasPrefix(line, "MySQL thread id ") || strings.HasPrefix(line, "MariaDB thread id ")):
			f := strings.Fields(strings.TrimSuffix(strings.SplitN(line, ",", 2)[0], ","))
			if len(f) >= 4 {
				thread, _ = strconv.ParseInt(f[3], 10, 64)
			}
		case strings.HasPrefix(line, "------- TRX HAS BEEN WAITING "):
			stage = 1
		case stage == 1 && strings.HasPrefix(line, "RECORD LOCKS "):
			cur = waitedRecord{object: lockLineObject(line)}
			stage = 2
			if thread != 0 {
				out[thread] = cur
			}
		case stage == 1:
			stage = 0 // a table lock: no record
		case stage == 2 && strings.HasPrefix(line, " 0: len "):
			if k := recordKey(line); k != "" && thread != 0 {
				cur.key = "key " + k
				out[thread] = cur
			}
			stage = 0
		case stage == 2 && strings.HasPrefix(line, "------------------"):
			stage = 0
		}
	}
	return out
}

// lockLineObject reads "index PRIMARY of table `shop`.`counter`" as
// "shop.counter PRIMARY", as the lock tables name it.
func lockLineObject(line string) string {
	_, rest, ok := strings.Cut(line, " index ")
	if !ok {
		return ""
	}
	idx, rest, ok := strings.Cut(rest, " of table ")
	if !ok {
		return ""
	}
	table, _, _ := strings.Cut(rest, " trx id")
	return strings.ReplaceAll(table, "`", "") + " " + strings.Trim(idx, "`")
}

// recordKey decodes " 0: len 4; hex 80000001; asc     ;;": bytes that are
// all printable are text; 4 and 8 bytes are InnoDB's signed integers, stored
// big-endian with the sign bit flipped; anything else is shown as hex.
func recordKey(line string) string {
	_, rest, ok := strings.Cut(line, "hex ")
	if !ok {
		return ""
	}
	h, _, _ := strings.Cut(rest, ";")
	b, err := hex.DecodeString(h)
	if err != nil || len(b) == 0 {
		return ""
	}
	printable := true
	for _, c := range b {
		printable = printable && c >= 0x20 && c <= 0x7e
	}
	switch {
	case printable:
		return strconv.Quote(string(b))
	case len(b) == 4:
		return strconv.FormatInt(int64(int32(binary.BigEndian.Uint32(b)^1<<31)), 10)
	case len(b) == 8:
		return strconv.FormatInt(int64(binary.BigEndian.Uint64(b)^1<<63), 10)
	}
	return "0x" + strings.ToLower(h)
}
