package ui

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// serverLines is the "Server /s" panel: statement mix, handler reads, query
// cache and buffer pool traffic, all per second over the last interval.
func serverLines(f *snapshot.Frame, h *history, width int) []string {
	s := f.Snapshot
	if len(s.Status) == 0 {
		return []string{naLine(s, snapshot.CollectorStatus, "no SHOW STATUS in this source")}
	}
	if f.Rates == nil || f.Rates.Status == nil {
		return []string{"[gray]rates from the next sample[-]"}
	}
	r := func(name string) string { return naShort(rate(f, name)) }
	return []string{
		withSpark("QPS "+naShort(qps(f)), h.qps, width),
		withSpark(threadsItem(s), h.running, width),
		fmt.Sprintf("sel %s ins %s upd %s del %s oth %s", r("Com_select"), r("Com_insert"),
			r("Com_update"), r("Com_delete"), otherStatements(f)),
		fmt.Sprintf("rd key %s next %s first %s", r("Handler_read_key"), r("Handler_read_next"), r("Handler_read_first")),
		fmt.Sprintf("rd rnd %s rnd_next %s", r("Handler_read_rnd"), r("Handler_read_rnd_next")),
		queryCacheLine(f),
		withSpark(fmt.Sprintf("BP req %s reads %s miss %s", r("Innodb_buffer_pool_read_requests"),
			r("Innodb_buffer_pool_reads"), naPct(bpMissPercent(f))), h.bpMiss, width),
		fmt.Sprintf("rows read %s changed %s", r("Innodb_rows_read"), rowsChanged(f)),
		fmt.Sprintf("tmp disk tables %s  merge passes %s", r("Created_tmp_disk_tables"), r("Sort_merge_passes")),
	}
}

// otherStatements is what Questions counts beyond the four DML commands.
func otherStatements(f *snapshot.Frame) string {
	total, ok := qps(f)
	if !ok {
		return "n/a"
	}
	for _, c := range []string{"Com_select", "Com_insert", "Com_update", "Com_delete"} {
		v, _ := rate(f, c)
		total -= v
	}
	return short(max(total, 0))
}

func rowsChanged(f *snapshot.Frame) string {
	sum, any := 0.0, false
	for _, c := range []string{"Innodb_rows_inserted", "Innodb_rows_updated", "Innodb_rows_deleted"} {
		if v, ok := rate(f, c); ok {
			sum += v
			any = true
		}
	}
	return naShort(sum, any)
}

func queryCacheLine(f *snapshot.Frame) string {
	if !queryCacheOn(f.Snapshot) {
		return "[gray]QC off or absent[-]"
	}
	r := func(name string) string { return naShort(rate(f, name)) }
	return fmt.Sprintf("QC hits %s ins %s prune %s hit %s", r("Qcache_hits"), r("Qcache_inserts"),
		r("Qcache_lowmem_prunes"), naPct(qcHitPercent(f)))
}
