package baseline

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

func tellRoutine(c *told) {
	tools := c.namesOf(kRoutine, prefixRoutine)
	var sessions []string
	for _, r := range c.routine {
		if contains(tools, r.Tool) {
			c.threads = append(c.threads, r.ID)
			s := fmt.Sprintf("%s (session %d", r.Tool, r.ID)
			if r.Doing != "" {
				s += ", " + r.Doing
			}
			sessions = append(sessions, s+")")
		}
	}
	c.title = "routine work started: " + strings.Join(tools, ", ")
	if len(sessions) > 0 {
		c.evidence = append(c.evidence, strings.Join(sessions[:min(3, len(sessions))], "; "))
	}
	c.moves()
	c.advice = "Routine work is loading the server at a busy time: let it finish, throttle it, or move it to a quiet hour."
}

func tellCPUOutside(c *told) {
	c.title = "CPU taken by a process outside mysqld"
	if who := busiestOthers(c.f); who != "" {
		c.title += ": " + who
	}
	if !moving(c, kOtherTop) && (diskBusy(c) || c.after(snapshot.CauseDisk)) {
		// No process is measured taking it while the disk is saturated: the
		// kernel's work for a fast writer (its writes, the page cache's
		// writeback) climbs seconds after the disk is named. The disk's
		// cost, ranked below it.
		c.effect = true
		c.title = "CPU outside mysqld rising with no process measured taking it: the kernel's work for the disk"
	}
	c.moves()
	c.advice = "Find the process (top, ps) and stop, renice or move it; mysqld's sessions are queueing for the CPU behind it."
}

func tellFlush(c *told) {
	switch {
	case c.movedOf(kFlushCmds) != nil || c.movedOf(kTablesOpened) != nil:
		c.title = "table or log flushes: FLUSH statements and tables reopened"
	case c.movedOf(kLogWaits) != nil:
		c.title = "flush stall: sessions wait for the redo log buffer"
	default:
		c.title = "checkpoint/flush stall: InnoDB is flushing to catch up"
	}
	c.moves()
	c.advice = "Find who issues FLUSH (a script, a backup tool) and space it out; a checkpoint stall wants a larger redo log or faster flushing."
}

func tellStatement(c *told) {
	stmts := c.namesOf(kStatement, prefixStatement)
	c.statements = stmts
	switch {
	case len(stmts) > 0:
		c.title = "new or regressed statement: " + shortName(stmts[0])
	default:
		c.title = "the statements changed: more rows read per query"
	}
	c.moves()
	c.advice = "EXPLAIN the statement: a new scan or a lost index; add the index, fix the query, or stop the job that sends it."
}

func tellWorkload(c *told) {
	switch {
	case c.movedOf(kClientHost) != nil:
		c.title = "workload spike from " + c.whoseShare(kClientHost, prefixHost, "client host")
	case c.movedOf(kUser) != nil:
		c.title = "workload spike from " + c.whoseShare(kUser, prefixUser, "user")
	default:
		c.title = "workload spike: more of the same requests"
		if q := c.movedOf(kQueries); q != nil {
			c.title += fmt.Sprintf(" (queries x%.1f)", q.g.cur/max(q.g.med, 1))
		}
	}
	c.moves()
	c.advice = "The application sends more than usual: find which client (processlist by host and user) and whether it is expected."
}

// newShare is the largest share of the active sessions, in percent, a
// client may hold in the normal and still be called new: one that rounds
// to none. A client with 1 % is there, only rarely active (sysbench's 32
// sessions beside the 60 an application always keeps waiting on a row).
const newShare = 0.5

// whoseShare names the clients of kind k whose share of the sessions rose:
// "a new client host: X" when the normal had none of them, else "client
// host X (12 % of sessions -> 80 %)": a client always there that now holds
// the sessions (its backlog flooding in) is not a new one.
func (c *told) whoseShare(k kind, prefix, what string) string {
	var fresh, more []string
	for _, x := range c.ms {
		if x.g.kind != k {
			continue
		}
		name := strings.TrimPrefix(x.g.name, prefix)
		if x.g.med <= newShare {
			fresh = append(fresh, name)
		} else {
			more = append(more, fmt.Sprintf("%s (%.0f %% of sessions -> %.0f %%)", name, x.g.med, x.g.cur))
		}
	}
	if len(more) == 0 {
		return "a new " + what + ": " + strings.Join(fresh, ", ")
	}
	out := what + " " + strings.Join(more, ", ")
	if len(fresh) > 0 {
		out += "; new: " + strings.Join(fresh, ", ")
	}
	return out
}

func tellReplication(c *told) {
	c.title = "replication falling behind"
	c.moves()
	c.advice = "Check the replica's applier (SHOW REPLICA STATUS, its load): a big transaction, or the replica cannot keep up."
}
