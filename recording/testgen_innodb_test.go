package recording

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// innodb returns the parsed InnoDB status and a raw text that, like the real
// one, quotes running statements in its TRANSACTIONS section.
func (f *fakeServer) innodb() *snapshot.InnoDBStatus {
	f.lsn += int64(200000 + f.rng.IntN(100000))
	st := &snapshot.InnoDBStatus{Time: f.now, AveragesSeconds: 1}
	st.Log = snapshot.InnoDBLog{Present: true, SequenceNumber: f.lsn, FlushedUpTo: f.lsn,
		LastCheckpoint: f.lsn - 900000, CheckpointAge: 900000, CapacityBytes: 96 << 20,
		CheckpointAgePercent: 900000.0 / float64(96<<20) * 100}
	st.BufferPool = snapshot.InnoDBBufferPool{Present: true, SizePages: 8191, FreePages: int64(f.rng.IntN(200)),
		DatabasePages: 7900, ModifiedPages: int64(f.rng.IntN(900)), PagesRead: int64(269382 + f.tick*33),
		ReadsPerSec: 32.97, HitRate: 0.997, HitRateShown: true}
	st.Rows = snapshot.InnoDBRows{Present: true, ReadViewsOpen: 2, Read: int64(f.tick) * 51234}
	var b strings.Builder
	fmt.Fprintf(&b, "=====================================\n%s INNODB MONITOR OUTPUT\n=====================================\n",
		f.now.Format("2006-01-02 15:04:05 0x7f9fb80b16c0"))
	b.WriteString("------------\nTRANSACTIONS\n------------\n")
	fmt.Fprintf(&b, "Trx id counter %d\nHistory list length %d\n", 51+f.tick*17, f.rng.IntN(300))
	tx := &st.Transactions
	tx.Present = true
	for _, p := range f.procs {
		if p.Command != "Query" {
			continue
		}
		secs := p.TimeMS / 1000
		fmt.Fprintf(&b, "---TRANSACTION %d, ACTIVE %d sec starting index read\nMariaDB thread id %d, query id %d %s %s %s\n%s\n",
			p.ID*7, secs, p.ID, f.tick, p.Host, p.User, p.State, p.Info)
		tx.Trx = append(tx.Trx, snapshot.InnoDBTrx{ID: fmt.Sprint(p.ID * 7), ActiveSeconds: secs, State: "ACTIVE",
			ThreadID: p.ID, TablesInUse: 1, Query: p.Info})
		tx.Count++
		tx.Active++
		tx.OldestActiveSeconds = max(tx.OldestActiveSeconds, secs)
	}
	fmt.Fprintf(&b, "---\nLOG\n---\nLog sequence number %d\nLog flushed up to   %d\nLast checkpoint at  %d\n",
		f.lsn, f.lsn, f.lsn-900000)
	fmt.Fprintf(&b, "----------------------\nBUFFER POOL AND MEMORY\n----------------------\nBuffer pool size   8191\nFree buffers       %d\nPages read %d, created 12469, written 15145\n",
		st.BufferPool.FreePages, st.BufferPool.PagesRead)
	b.WriteString("----------------------------\nEND OF INNODB MONITOR OUTPUT\n============================\n")
	st.Raw = b.String()
	return st
}
