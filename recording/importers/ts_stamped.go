package importers

// pt-stalk's TS-stamped copies of /proc/stat, /proc/vmstat, /proc/diskstats,
// /proc/meminfo and netstat -s (pt-diskstats saves the same layout, and a
// shell loop writes it with `echo "TS $(date +%s.%N) $(date '+%F %T')"`),
// given outside their collection: one host sample per TS block, on its own
// clock: memory and the TCP counters beside shell loops, as in pt-stalk's. Its sniff, and its reader in a
// pile; inside a collection they are read by ptstalk_host.go.

import (
	"bytes"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// kindTSStamped is pt-stalk's TS-stamped /proc/stat, /proc/vmstat, /proc/diskstats,
// /proc/meminfo and netstat -s.
const kindTSStamped fileKind = "ts-stamped"

func isTSStamped(head []byte, _ []string) bool {
	return bytes.HasPrefix(head, []byte("TS ")) && ptStalkPartOf(head) != ""
}

// readStamped reads the TS-stamped copies: one host sample per TS block, on
// its own clock.
func (p *pileReader) readStamped(pf *pileFile) error {
	apply := map[string]func(*snapshot.Host, []string){
		"procstat": applyProcStat, "diskstats": applyDiskstats, "procvmstat": applyProcVmstat,
		"meminfo": applyMeminfo, "netstat_s": applyNetstatS,
	}[guessPtStalkPart(pf.path)]
	if apply == nil {
		return nil
	}
	pf.timed = true
	r := &ptReader{in: p.run.in, sess: p.sess, loc: p.run.opts.Location}
	return r.eachTSBlock(pf.path, func(t time.Time, lines []string) {
		pf.samples = append(pf.samples, pileSample{at: t, addHost: func(h *snapshot.Host) { apply(h, lines) }})
	})
}
