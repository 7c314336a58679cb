package baseline

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

func tellMemory(c *told) {
	switch {
	case c.movedOf(kSwap) != nil:
		c.title = "memory: the host is swapping"
	case c.movedOf(kRSS) != nil:
		c.title = "memory: mysqld's resident memory is growing"
	default:
		c.title = "memory: the host is short of memory"
	}
	c.moves()
	c.advice = "Find what grew (mysqld's RSS, another process, the page cache): swapping stalls every session."
}

func tellNetwork(c *told) {
	switch {
	case c.movedOf(kRetrans) != nil || c.movedOf(kNetErrors) != nil:
		c.title = "network: the host is losing packets (TCP retransmits, drops or errors)"
	case c.movedOf(kClientQueue) != nil:
		c.title = "network: the clients' link is slow: mysqld's answers wait unacknowledged"
	case c.movedOf(kRoundTrip) != nil:
		c.title = "network: the round trip to the server rose"
	case c.movedOf(kIdleInTrx) != nil:
		c.title = "the clients' round trips slowed (network or application): sessions sit idle inside their transactions"
	default:
		c.title = "network: sessions wait on the client link"
	}
	c.moves()
	if c.movedOf(kIdleInTrx) != nil {
		c.evidence = append(c.evidence, "the server waits for the clients' next statement with their transactions open "+
			"(and their row locks held): lock waits rising beside it are its effect")
	}
	c.advice = "Check the link between clients and server (TCP retransmits, interface errors, a saturated or delayed path) " +
		"and the application hosts (CPU, GC pauses): each statement of a transaction waits for the client's round trip."
}

// tellDisk says who saturates the disk: mysqld's reads, its flushing, or,
// when the device moved and mysqld's own I/O did not, another process (then,
// where mysqld's sessions wait on the device, the class names the root
// itself and ranks as such).
func tellDisk(c *told) {
	dev := ""
	if d := c.movedOf(kDiskUtil); d != nil {
		dev = strings.TrimSuffix(strings.TrimPrefix(d.g.name, "disk "), " util %")
	} else if d := c.movedOf(kDiskAwait); d != nil {
		dev = strings.TrimSuffix(strings.TrimPrefix(d.g.name, "disk "), " await ms")
	}
	what := "the disk"
	if dev != "" {
		what = "disk " + dev
	}
	mysqldReads := moving(c, kDataRead)
	mysqldWrites := moving(c, kDataWritten) || moving(c, kPagesFlushed)
	switch {
	case mysqldReads:
		c.title = what + " saturated by mysqld's reads"
		c.statements = topStatements(c.f, snapshot.ClassIO, 3)
		c.advice = "The statements reading from disk are in the list: a scan that misses the buffer pool; fix it or give the pool more memory."
	case mysqldWrites:
		c.title = what + " saturated by mysqld's flushing"
		c.advice = "InnoDB writes more than usual: a bulk change or a checkpoint; spread it, or check innodb_io_capacity."
	default:
		c.title = what + " saturated by another process"
		// It names the root only where mysqld's sessions wait on the
		// device (in I/O or in commit). A busy device beside sessions that
		// wait on something else (a convoy's row locks, the queries falling
		// for that) is news, ranked below the causes its sessions show.
		c.weight = 0.5
		if moving(c, kLoadIO) || moving(c, kLoadCommit) {
			c.weight = 3
		}
		if who := busiestOthers(c.f); who != "" {
			c.evidence = append(c.evidence, "busiest processes: "+who)
		}
		c.advice = "mysqld's own reads and writes did not rise: find the other process using the device (iotop, pidstat -d) and stop or throttle it."
	}
	c.moves()
}

// moving says whether a signal of kind k is out upward in the frame, even
// if the class does not count it.
// diskBusy: a disk signal stands out high (utilisation, waits, iowait,
// blocked tasks).
func diskBusy(c *told) bool {
	return moving(c, kDiskUtil) || moving(c, kDiskAwait) || moving(c, kIOWait) || moving(c, kBlocked)
}

func moving(c *told, k kind) bool {
	for _, g := range c.all {
		if g.kind == k && g.out == up {
			return true
		}
	}
	return false
}

func tellLocks(c *told) {
	var kinds []string
	if moving(c, kRowLockTime) || moving(c, kRowLockCurrent) || moving(c, kLoadRowLock) {
		kinds = append(kinds, "row")
	}
	if moving(c, kLoadTableLock) || moving(c, kTableLockWaits) {
		kinds = append(kinds, "table")
	}
	if moving(c, kLoadMDL) {
		kinds = append(kinds, "metadata")
	}
	if moving(c, kLoadGlobalLock) {
		kinds = append(kinds, "global read")
	}
	c.title = "lock contention rising: " + strings.Join(kinds, ", ") + " lock waits"
	if moving(c, kClientQueue) || c.after(snapshot.CauseNetwork) {
		// Behind a slowed link each client holds its transaction, and its
		// row locks, across every round trip: the waits climb a few seconds
		// after the link is named, often further than its own signals moved,
		// and peak as the link recovers and the held-up clients catch up.
		// They are its effect, ranked below it through the episode.
		c.effect = true
		why := "mysqld's answers wait unacknowledged on the clients' connections"
		if c.after(snapshot.CauseNetwork) {
			why = "the network was named first in this episode"
		}
		c.evidence = append(c.evidence, why+": transactions stay open across the slow round trips, holding their row locks")
	}
	c.statements = topStatements(c.f, snapshot.ClassRowLock, 2)
	for _, fd := range c.f.Findings {
		for _, rb := range fd.RootBlockers {
			if !containsID(c.threads, rb.Thread) {
				c.threads = append(c.threads, rb.Thread)
			}
		}
	}
	c.moves()
	c.advice = "Judged by the time sessions wait, not only their count: find the blocker in the lock view (L) and end or shorten its transaction."
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
