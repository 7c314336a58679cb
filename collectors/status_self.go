package collectors

import (
	"context"
	"strconv"
)

// selfTmp measures the temporary tables the monitor's own statements make,
// so tmp_disk_tables can take them out of the global counters. Measured on
// MariaDB 10.11 with tmp_table_size=1M: SHOW [GLOBAL|SESSION] STATUS never
// counts in the session's own counters (the server hides a SHOW STATUS from
// the status it shows) but does in the global ones, and the full SHOW GLOBAL
// STATUS goes to disk there. So the cost of the full read is the global
// change it leaves behind, read at once by a short SHOW GLOBAL STATUS LIKE;
// every other statement of the sampling session is in its session counters;
// the short SHOW ... LIKE reads are counted as one in-memory table each.
//
// The short global read costs the server as much as the full one (at 5,000
// connections MariaDB sums every connection's status for either: 8–37 ms
// measured, bench/RESULTS.md), and what the full read leaves behind is the
// same from one read to the next. So it is measured on a session's first
// read and then every selfTmpMeasureEvery reads, the lower of the last two
// measurements kept (another client's table made in that instant would
// otherwise count as the monitor's until the next one).
type selfTmp struct {
	// last is the map read returned last, returned again while unchanged.
	last       map[string]string
	pairs      pairReader
	session    pairReader
	lastSess   [2]float64 // session counters at the previous read
	haveSess   bool
	reads      int        // reads since the session's first
	full       [2]float64 // the full read's own tables, as last measured
	measured   [2]float64 // the measurement before, for the lower of the two
	makersAt   int        // the connection's tmpMakers at the last session read
	shortReads float64    // the short reads since the last full one, not yet counted
	all        float64    // the monitor's own, cumulative
	disk       float64
}

// selfTmpMeasureEvery: one tick in 300 (5 minutes at the default 1 s) pays
// for the short global read, fewer than the 1 % a tick p99 would show.
const selfTmpMeasureEvery = 300

// ownTmpNames are the counters measured, in [all, disk] order.
var ownTmpNames = [2]string{"Created_tmp_tables", "Created_tmp_disk_tables"}

// The short reads: SHOW STATUS leaves itself out of the session counters.
const (
	globalTmpQuery  = "SHOW GLOBAL STATUS LIKE 'Created\\_tmp%'"
	sessionTmpQuery = "SHOW SESSION STATUS LIKE 'Created\\_tmp%'"
)

// read runs right after the full SHOW GLOBAL STATUS whose values are global;
// it returns the monitor's own cumulative counters, or nil when the server
// refuses a read. The session counters are read only when a statement that
// may make a temporary table ran on c since they were last read.
func (o *selfTmp) read(ctx context.Context, c *sampleConn, global map[string]string) map[string]string {
	measure := !o.haveSess || o.reads%selfTmpMeasureEvery == 0
	var after map[string]string
	if measure {
		var err error
		if after, err = o.pairs.read(ctx, c, globalTmpQuery); err != nil {
			return nil
		}
	}
	if measure {
		c.learnt = nil // relearnt from the next lone run
	}
	makersSince := c.tmpMakers - o.makersAt
	readSess := measure || makersSince != 0
	var sess map[string]string
	if readSess {
		var err error
		if sess, err = o.session.read(ctx, c, sessionTmpQuery); err != nil {
			return nil
		}
		o.makersAt = c.tmpMakers
	}
	learnt := c.takeLearnt()
	var rests [2]float64
	for i, name := range ownTmpNames {
		if measure {
			// The full read's own, plus others' in that instant.
			m := max(statusNumber(after[name])-statusNumber(global[name]), 0)
			if !o.haveSess {
				o.measured[i] = m
			}
			o.full[i], o.measured[i] = min(m, o.measured[i]), m
		}
		var rest float64
		if readSess {
			s := statusNumber(sess[name])
			if o.haveSess && s >= o.lastSess[i] {
				rest = s - o.lastSess[i] // the session's other statements since the last read
			}
			o.lastSess[i] = s
		}
		rests[i] = rest
		rest += learnt[i]
		if i == 0 {
			// The short reads' own in-memory tables show in the global
			// counters from the next full read on.
			o.all += o.full[i] + rest + o.shortReads
			o.shortReads = 0
			if readSess {
				o.shortReads++
			}
			if measure {
				o.shortReads++
			}
		} else {
			o.disk += o.full[i] + rest
		}
	}
	if readSess && o.haveSess {
		c.learn(makersSince, rests)
	}
	o.haveSess = true
	o.reads++
	all, disk := strconv.FormatFloat(o.all, 'f', 0, 64), strconv.FormatFloat(o.disk, 'f', 0, 64)
	// Unchanged most ticks: the frames of the analyzers' window share one map
	// instead of holding one each (read-only once returned).
	if o.last == nil || o.last[ownTmpNames[0]] != all || o.last[ownTmpNames[1]] != disk {
		o.last = map[string]string{ownTmpNames[0]: all, ownTmpNames[1]: disk}
	}
	return o.last
}

func statusNumber(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}
