package collectors

import (
	"context"
	"database/sql"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

const digestTable = "performance_schema.events_statements_summary_by_digest"

// digestCounterCols are read on every row; their order is digestCounters'.
var digestCounterCols = []string{
	"COUNT_STAR", "SUM_ERRORS", "SUM_WARNINGS", "SUM_TIMER_WAIT", "SUM_LOCK_TIME", "SUM_ROWS_EXAMINED",
	"SUM_ROWS_SENT", "SUM_ROWS_AFFECTED", "SUM_NO_INDEX_USED", "SUM_NO_GOOD_INDEX_USED",
	"SUM_CREATED_TMP_TABLES", "SUM_CREATED_TMP_DISK_TABLES", "SUM_SORT_MERGE_PASSES",
}

// digestCounters are one digest's cumulative counters, in digestCounterCols'
// order; times in picoseconds.
type digestCounters [13]uint64

const (
	cCalls = iota
	cErrors
	cWarnings
	cTimer
	cLock
	cExamined
	cSent
	cAffected
	cNoIndex
	cNoGoodIndex
	cTmp
	cTmpDisk
	cSortMerge
)

// digestColumns are the optional columns this server's table has.
type digestColumns struct {
	quantiles bool // MySQL 8.0: QUANTILE_95, QUANTILE_99, QUANTILE_999
	sample    bool // MySQL 8.0: QUERY_SAMPLE_TEXT
}

func columnsOf(cols []string) digestColumns {
	var c digestColumns
	for _, name := range cols {
		switch strings.ToUpper(name) {
		case "QUANTILE_99":
			c.quantiles = true
		case "QUERY_SAMPLE_TEXT":
			c.sample = true
		}
	}
	return c
}

// digestState is what the collector remembers between reads.
type digestState struct {
	// prev holds every digest's counters at its last read.
	prev map[string]digestCounters
	// cursor is the server's UNIX_TIMESTAMP() one second before the last
	// read began: rows with LAST_SEEN at or after it may have changed since.
	// LAST_SEEN has whole seconds on MariaDB and MySQL 5.7, hence the second
	// of slack; rows read twice have no difference and are dropped.
	cursor   int64
	readAt   time.Time
	lost     int64
	haveLost bool
	samples  sampleCache
	// texts keeps the DIGEST_TEXT of digests stored lately, so an interval
	// read need not ask for it (digests_text.go); withText says the next
	// read asks for it anyway, as digests new to the cache came lately;
	// quiet counts the reads since one did.
	texts    textCache
	withText bool
	quiet    int
}

// maxStoredDigests bounds the digests one sample stores, costliest first,
// so a recording does not grow by the digest table when all of it is busy.
const maxStoredDigests = 200

// maxKnownDigests bounds the counters kept; beyond it (digests emptied by
// TRUNCATE never come back) the state is rebuilt from one full read.
const maxKnownDigests = 400_000

// read runs one interval's query and returns its sample.
func (st *digestState) read(ctx context.Context, q queryer, cols *digestColumns, s *snapshot.Snapshot) (*snapshot.Statements, error) {
	if len(st.prev) > maxKnownDigests {
		*st = digestState{samples: st.samples, texts: st.texts}
	}
	baseline := st.prev == nil
	started := time.Now()
	out := &snapshot.Statements{At: s.Time, Quantiles: cols.quantiles && !baseline}
	if !baseline {
		out.Interval = started.Sub(st.readAt).Round(time.Millisecond).Seconds()
	}
	withText := !baseline && st.withText
	rows := newDigestRows(baseline, cols, withText)
	var nextCursor int64
	err := eachRow(ctx, q, digestQuery(baseline, cols, st.cursor, withText), func([]string) {}, func(raw []sql.RawBytes) {
		nextCursor = rows.add(raw, st, out)
	})
	if err != nil {
		return nil, err
	}
	if st.prev == nil {
		st.prev = make(map[string]digestCounters, len(rows.seen))
	}
	for k, v := range rows.seen {
		st.prev[k] = v
	}
	if nextCursor > 0 {
		st.cursor = nextCursor
	}
	if baseline {
		st.withText = true // the next read's digests are all new to the text cache
	}
	st.readAt = started
	st.addLost(s, out)
	out.Changed = len(rows.changed)
	out.Digests = costliest(rows.changed, maxStoredDigests)
	if !baseline {
		if err := st.fillTexts(ctx, q, out.Digests, withText); err != nil {
			return nil, err
		}
	}
	st.samples.fill(out.Digests, s.Processlist)
	return out, nil
}

// digestQuery selects the counters of the rows seen since cursor (all rows
// at the first read), and DIGEST_TEXT only when text is set: the server
// computes every row's text whatever the query asks, but copying it into
// the row costs 14 % more (digests_text.go). UNIX_TIMESTAMP of a TIMESTAMP
// column is its stored instant, so the comparison holds across time zones
// and DST. No ORDER BY: the rows are few, and sorting them is the monitor's.
func digestQuery(baseline bool, cols *digestColumns, cursor int64, text bool) string {
	var b strings.Builder
	b.WriteString("SELECT UNIX_TIMESTAMP() - 1, UNIX_TIMESTAMP(FIRST_SEEN), SCHEMA_NAME, DIGEST, ")
	b.WriteString(strings.Join(digestCounterCols, ", "))
	if !baseline {
		if text {
			b.WriteString(", DIGEST_TEXT")
		}
		b.WriteString(", MAX_TIMER_WAIT")
		if cols.quantiles {
			b.WriteString(", QUANTILE_95, QUANTILE_99")
		}
		if cols.sample {
			b.WriteString(", QUERY_SAMPLE_TEXT")
		}
	}
	b.WriteString(" FROM " + digestTable)
	if !baseline {
		b.WriteString(" WHERE UNIX_TIMESTAMP(LAST_SEEN) >= " + strconv.FormatInt(cursor, 10))
	}
	return b.String()
}

// digestRows decodes one read's rows.
type digestRows struct {
	baseline bool
	text     bool // the rows have DIGEST_TEXT
	cols     *digestColumns
	seen     map[string]digestCounters
	changed  []snapshot.Digest
}

func newDigestRows(baseline bool, cols *digestColumns, text bool) *digestRows {
	return &digestRows{baseline: baseline, text: text, cols: cols, seen: map[string]digestCounters{}}
}

// Fixed leading columns of digestQuery.
const (
	dColCursor = iota
	dColFirstSeen
	dColSchema
	dColDigest
	dColCounters
)

// add decodes one row, records its counters and, when it ran since the last
// read, its difference. It returns the row's cursor column.
func (r *digestRows) add(raw []sql.RawBytes, st *digestState, out *snapshot.Statements) int64 {
	var cur digestCounters
	for i := range cur {
		cur[i] = parseUint(raw[dColCounters+i])
	}
	key := string(raw[dColSchema]) + "\x00" + string(raw[dColDigest])
	r.seen[key] = cur
	if r.baseline {
		return int64(parseUint(raw[dColCursor]))
	}
	prev, known := st.prev[key]
	backwards := known && cur[cCalls] < prev[cCalls]
	out.Reset = out.Reset || backwards // emptied (TRUNCATE) and started again
	switch {
	case known && !backwards:
	case int64(parseUint(raw[dColFirstSeen])) >= st.cursor:
		prev = digestCounters{} // new since the last read: all of it is this interval's
	default:
		return int64(parseUint(raw[dColCursor])) // unknown history; counted from the next read
	}
	if cur[cCalls] == prev[cCalls] && cur[cTimer] == prev[cTimer] {
		return int64(parseUint(raw[dColCursor]))
	}
	r.changed = append(r.changed, r.digest(raw, cur, prev))
	return int64(parseUint(raw[dColCursor]))
}

// digest builds the interval's Digest from the row and the two counters.
func (r *digestRows) digest(raw []sql.RawBytes, cur, prev digestCounters) snapshot.Digest {
	var d digestCounters
	for i := range cur {
		if cur[i] >= prev[i] {
			d[i] = cur[i] - prev[i]
		}
	}
	n := dColCounters + len(digestCounterCols)
	out := snapshot.Digest{
		Schema: string(raw[dColSchema]), Digest: string(raw[dColDigest]),
		Calls: int64(d[cCalls]), Errors: int64(d[cErrors]), Warnings: int64(d[cWarnings]),
		LatencyS: picoSeconds(d[cTimer]), LockS: picoSeconds(d[cLock]),
		RowsExamined: int64(d[cExamined]), RowsSent: int64(d[cSent]), RowsAffected: int64(d[cAffected]),
		NoIndexUsed: int64(d[cNoIndex]), NoGoodIndexUsed: int64(d[cNoGoodIndex]),
		TmpTables: int64(d[cTmp]), TmpDiskTables: int64(d[cTmpDisk]), SortMergePasses: int64(d[cSortMerge]),
	}
	if r.text {
		out.Text = strings.TrimSpace(string(raw[n]))
		n++
	}
	out.MaxS = picoSeconds(parseUint(raw[n]))
	n++
	if r.cols.quantiles {
		out.P95S, out.P99S = picoSeconds(parseUint(raw[n])), picoSeconds(parseUint(raw[n+1]))
		n += 2
	}
	if r.cols.sample {
		out.Sample = string(raw[n])
	}
	return out
}

// picoSeconds converts performance_schema's timer unit to seconds, kept to
// the microsecond: the digits below it are noise that a recording would
// store every read (they made a third of a frame's bytes).
func picoSeconds(ps uint64) float64 { return math.Round(float64(ps)/1e6) / 1e6 }

// addLost notes statements the full digest table could not give a row to.
func (st *digestState) addLost(s *snapshot.Snapshot, out *snapshot.Statements) {
	out.DigestsSize, _ = strconv.ParseInt(s.Variables["performance_schema_digests_size"], 10, 64)
	v, ok := s.Status["Performance_schema_digest_lost"]
	if !ok {
		return
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	out.LostTotal = n
	if st.haveLost && n >= st.lost {
		out.Lost = n - st.lost
	}
	st.lost, st.haveLost = n, true
}

// costliest keeps the n digests with the most latency in the interval.
func costliest(ds []snapshot.Digest, n int) []snapshot.Digest {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].LatencyS != ds[j].LatencyS {
			return ds[i].LatencyS > ds[j].LatencyS
		}
		return ds[i].Calls > ds[j].Calls
	})
	if len(ds) > n {
		ds = ds[:n]
	}
	return ds
}
