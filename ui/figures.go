package ui

import (
	"math"

	"github.com/mytop-go/mytop-go/snapshot"
)

// rate is a status counter's per-second rate in f.
func rate(f *snapshot.Frame, name string) (float64, bool) {
	if f == nil {
		return 0, false
	}
	return f.Rates.Rate(name)
}

// qps prefers Questions (client statements) over Queries (which adds
// statements run inside stored programs).
func qps(f *snapshot.Frame) (float64, bool) {
	if v, ok := rate(f, "Questions"); ok {
		return v, true
	}
	return rate(f, "Queries")
}

// bpMissPercent is buffer pool reads from disk per logical read request over
// the last interval, not since start-up, so a cold start does not mask today.
func bpMissPercent(f *snapshot.Frame) (float64, bool) {
	req, ok1 := rate(f, "Innodb_buffer_pool_read_requests")
	reads, ok2 := rate(f, "Innodb_buffer_pool_reads")
	if !ok1 || !ok2 {
		return 0, false
	}
	if req <= 0 {
		return 0, true
	}
	return min(reads/req*100, 100), true
}

// qcHitPercent is query cache hits among cacheable SELECTs over the interval;
// Com_select counts only the SELECTs the cache did not answer.
func qcHitPercent(f *snapshot.Frame) (float64, bool) {
	if f == nil || !queryCacheOn(f.Snapshot) {
		return 0, false
	}
	hits, ok1 := rate(f, "Qcache_hits")
	sel, ok2 := rate(f, "Com_select")
	if !ok1 || !ok2 {
		return 0, false
	}
	if hits+sel <= 0 {
		return 0, true
	}
	return hits / (hits + sel) * 100, true
}

// queryCacheOn is false when the server has no query cache or it is off;
// unknown variables count as on when the status counters exist.
func queryCacheOn(s *snapshot.Snapshot) bool {
	if _, ok := s.Status["Qcache_hits"]; !ok {
		return false
	}
	if t, ok := s.Var("query_cache_type"); ok && (t == "OFF" || t == "0") {
		return false
	}
	if size, ok := s.VarFloat("query_cache_size"); ok && size == 0 {
		return false
	}
	return true
}

// cpuBusy is 100 - idle percent of all CPUs, NaN when unknown.
func cpuBusy(f *snapshot.Frame) float64 {
	if f == nil || f.Rates == nil || f.Rates.Host == nil {
		return math.NaN()
	}
	return 100 - f.Rates.Host.CPU.Idle
}

// threads returns Threads_connected and Threads_running.
func threads(s *snapshot.Snapshot) (conn, run int64, ok bool) {
	conn, ok1 := s.StatusInt("Threads_connected")
	run, ok2 := s.StatusInt("Threads_running")
	return conn, run, ok1 && ok2
}

// unavailable explains why a source gave nothing, or "" when it did not say.
func unavailable(s *snapshot.Snapshot, source snapshot.CollectorName) string {
	st, ok := s.Collectors[source]
	switch {
	case !ok:
		return ""
	case st.Unavailable != "":
		return st.Unavailable
	default:
		return st.Error
	}
}

// staleNote marks a panel whose figures were carried from an earlier tick,
// so old numbers are not read as current; "" when fresh.
func staleNote(s *snapshot.Snapshot, source snapshot.CollectorName) string {
	st, ok := s.Collectors[source]
	if !ok || !st.Stale {
		return ""
	}
	if st.Error == "" {
		return "stale"
	}
	return "stale: " + safeLine(st.Error, 60)
}

// naLine is what a panel shows instead of zeros when its source is missing.
func naLine(s *snapshot.Snapshot, source snapshot.CollectorName, fallback string) string {
	reason := unavailable(s, source)
	if reason == "" {
		reason = fallback
	}
	return "[gray]n/a: " + safeLine(reason, 200) + "[-]"
}

// naShort formats a rate, or "n/a" when it is unknown.
func naShort(v float64, ok bool) string {
	if !ok {
		return "n/a"
	}
	return short(v)
}

// naPct formats a percentage, or "n/a" when it is unknown.
func naPct(v float64, ok bool) string {
	if !ok {
		return "n/a"
	}
	return pct(v)
}
