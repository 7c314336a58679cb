package collectors

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// noProcessPrivilege is shown when the user sees only its own threads.
const noProcessPrivilege = "only your own threads are visible: needs the PROCESS privilege"

// processlist reads the server's threads, hiding the monitor's own.
type processlist struct {
	link *serverLink
	dec  processDecoder
	last int // rows last tick, to size the next slice
	// took is the last read, on whichever session ran it (a tick that
	// carried the list keeps it: the companion is judged by what a read
	// costs).
	took time.Duration
	// ahead is the read started on the companion session this tick, and
	// joined the one Collect waited for (processlist_ahead.go).
	ahead, joined *aheadRead
	// cad says when the list is read in full (processlist_cadence.go).
	cad listCadence
	// of is the session cad learnt on.
	of *session
}

// Name implements Collector.
func (p *processlist) Name() snapshot.CollectorName { return snapshot.CollectorProcesslist }

// Collect implements Collector.
func (p *processlist) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := p.link.session()
	if sess == nil {
		return errNotConnected
	}
	if sess != p.of {
		p.of = sess
		p.cad.forget()
	}
	if p.ahead == nil && p.cad.mayCarry(s, p.link.hasOrphans()) {
		s.Processlist = p.cad.carried(s.Time)
		p.cad.setCadence(s)
		return nil
	}
	rows, err := p.read(ctx, sess)
	if err != nil {
		return err
	}
	p.last = len(rows)
	p.link.sawProcesses(rows, serverStartOf(s), s.Time)
	s.Processlist = withoutThreads(rows, p.link.ownIDs())
	own, err := addDetail(ctx, sess, s.Processlist)
	s.SelfTmpDiskTables += own
	if err != nil {
		return err
	}
	if !sess.Caps.Process {
		setUnavailable(s, snapshot.CollectorProcesslist, noProcessPrivilege)
		return nil
	}
	p.cad.sawFull(s, p.took, s.Processlist)
	p.cad.mark(s)
	return nil
}

// aheadDue reports whether this tick's list may be read on the companion
// before the status: when its full read is due, or the last tick read it
// because something ran (so it likely runs still). Otherwise the status
// says first whether the tick reads it at all.
func (p *processlist) aheadDue(now time.Time) bool { return !p.cad.mayCarryAt(now) }

// processlistQuery is the statement for the source the server offers.
func processlistQuery(c Capabilities) string {
	if c.Processlist == sourcePerfSchema {
		return "SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO FROM performance_schema.processlist"
	}
	return "SHOW FULL PROCESSLIST"
}

// withoutThreads drops the given thread ids (the monitor's own connections).
func withoutThreads(ps []snapshot.Process, hide []int64) []snapshot.Process {
	if len(hide) == 0 {
		return ps
	}
	kept := ps[:0]
	for _, p := range ps {
		if !containsID(hide, p.ID) {
			kept = append(kept, p)
		}
	}
	return kept
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func parseInt(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return int64(parseFloat(s))
	}
	return n
}

func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0
	}
	return f
}

// serverStartOf is when the server started, from this tick's Uptime (zero
// when not read): a thread id names the same thread only while it holds.
func serverStartOf(s *snapshot.Snapshot) time.Time { return s.ServerStart() }
