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
// the two short SHOW ... LIKE reads are counted as one in-memory table each.
type selfTmp struct {
	pairs     pairReader
	session   pairReader
	lastSess  [2]float64 // session counters at the previous read
	haveSess  bool
	all, disk float64 // the monitor's own, cumulative
}

// ownTmpNames are the counters measured, in [all, disk] order.
var ownTmpNames = [2]string{"Created_tmp_tables", "Created_tmp_disk_tables"}

// read runs right after the full SHOW GLOBAL STATUS whose values are global;
// it returns the monitor's own cumulative counters, or nil when the server
// refuses either read.
func (o *selfTmp) read(ctx context.Context, q queryer, global map[string]string) map[string]string {
	after, err := o.pairs.read(ctx, q, "SHOW GLOBAL STATUS LIKE 'Created\\_tmp%'")
	if err != nil {
		return nil
	}
	sess, err := o.session.read(ctx, q, "SHOW SESSION STATUS LIKE 'Created\\_tmp%'")
	if err != nil {
		return nil
	}
	for i, name := range ownTmpNames {
		full := max(statusNumber(after[name])-statusNumber(global[name]), 0) // the full read's own, plus others' in that instant
		s := statusNumber(sess[name])
		var rest float64
		if o.haveSess && s >= o.lastSess[i] {
			rest = s - o.lastSess[i] // the session's other statements since the last read
		}
		o.lastSess[i] = s
		if i == 0 {
			o.all += full + rest + 2 // the two LIKE reads, in memory
		} else {
			o.disk += full + rest
		}
	}
	o.haveSess = true
	return map[string]string{ownTmpNames[0]: strconv.FormatFloat(o.all, 'f', 0, 64),
		ownTmpNames[1]: strconv.FormatFloat(o.disk, 'f', 0, 64)}
}

func statusNumber(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}
