package analyzers

import "github.com/mytop-go/mytop-go/snapshot"

// Builders for host figures: cumulative counters growing at the given rates.

// cpuLoad sets CPU count, run queue and the idle share of CPU time.
func cpuLoad(cpus int, runQueue int64, idlePct float64) edit {
	return func(i int, s *snapshot.Snapshot) {
		h := hostOf(s)
		h.NumCPU, h.ProcsRunning = cpus, runQueue
		h.CPU = snapshot.CPUTimes{Idle: idlePct * float64(i), User: (100 - idlePct) * float64(i)}
	}
}

// swap sets swap traffic in pages per second and swap usage.
func swap(inPerSec, outPerSec uint64, usedPct uint64) edit {
	return func(i int, s *snapshot.Snapshot) {
		h := hostOf(s)
		h.SwapInPages, h.SwapOutPages = inPerSec*uint64(i), outPerSec*uint64(i)
		h.SwapTotal, h.SwapFree = 1<<30, (1<<30)/100*(100-usedPct)
		h.MemTotal, h.MemAvailable = 8<<30, 200<<20
	}
}

// disk adds a device with the given utilisation, await and reads per second.
func disk(name string, utilPct, awaitMS, iops uint64) edit {
	return func(i int, s *snapshot.Snapshot) {
		h := hostOf(s)
		n := uint64(i)
		h.Disks = append(h.Disks, snapshot.DiskCounters{Name: name, Reads: iops * n, ReadTimeMS: awaitMS * iops * n,
			IOTimeMS: utilPct * 10 * n, ReadBytes: iops * 16384 * n})
	}
}

// hostOf returns s.Host, creating it.
func hostOf(s *snapshot.Snapshot) *snapshot.Host {
	if s.Host == nil {
		s.Host = &snapshot.Host{}
	}
	return s.Host
}

// remote marks the server as on another machine.
func remote(_ int, s *snapshot.Snapshot) { s.Host = &snapshot.Host{Remote: true} }

// noHost is a source without host figures.
func noHost(_ int, s *snapshot.Snapshot) { s.Host = nil }

// trx adds an InnoDB transaction to the TRANSACTIONS section; ages grow by
// one second per snapshot, as a live server's would.
func trx(proto snapshot.InnoDBTrx) edit {
	return func(i int, s *snapshot.Snapshot) {
		t := proto
		if s.InnoDB == nil {
			s.InnoDB = &snapshot.InnoDBStatus{}
		}
		tx := &s.InnoDB.Transactions
		tx.Present = true
		t.ActiveSeconds += int64(i)
		if t.LockWait {
			t.LockWaitSeconds += int64(i)
			tx.LockWaits++
		}
		if t.State == "" {
			t.State = "ACTIVE"
		}
		tx.Count++
		tx.Active++
		tx.OldestActiveSeconds = max(tx.OldestActiveSeconds, t.ActiveSeconds)
		tx.Trx = append(tx.Trx, t)
	}
}

// emptyTrxList is an InnoDB status with no transactions.
func emptyTrxList(_ int, s *snapshot.Snapshot) {
	s.InnoDB = &snapshot.InnoDBStatus{Transactions: snapshot.InnoDBTransactions{Present: true}}
}

// noInnoDBWith is a status-only source (no SEIS) with one status value set.
func noInnoDBWith(name, value string) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.InnoDB = nil
		s.Status[name] = value
	}
}
