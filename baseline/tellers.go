package baseline

import (
	"fmt"
	"strings"
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
	hosts, users := c.namesOf(kClientHost, prefixHost), c.namesOf(kUser, prefixUser)
	switch {
	case len(hosts) > 0:
		c.title = "workload spike from a new client host: " + strings.Join(hosts, ", ")
	case len(users) > 0:
		c.title = "workload spike from a new user: " + strings.Join(users, ", ")
	default:
		c.title = "workload spike: more of the same requests"
		if q := c.movedOf(kQueries); q != nil {
			c.title += fmt.Sprintf(" (queries x%.1f)", q.g.cur/max(q.g.med, 1))
		}
	}
	c.moves()
	c.advice = "The application sends more than usual: find which client (processlist by host and user) and whether it is expected."
}

func tellReplication(c *told) {
	c.title = "replication falling behind"
	c.moves()
	c.advice = "Check the replica's applier (SHOW REPLICA STATUS, its load): a big transaction, or the replica cannot keep up."
}
