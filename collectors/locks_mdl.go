package collectors

import (
	"context"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// mdlSource is where metadata locks are read from on this connection.
type mdlSource int

const (
	mdlUnknown mdlSource = iota
	mdlPerfSchema
	mdlPlugin
	mdlInferred
)

const (
	srcMetadataLocks = "performance_schema.metadata_locks"
	srcMDLInfo       = "information_schema.METADATA_LOCK_INFO"

	// metadataLocksQuery lists table locks granted and pending, by thread,
	// and the global, commit and backup locks a backup takes and waits for.
	metadataLocksQuery = "SELECT t.PROCESSLIST_ID, m.OBJECT_SCHEMA, m.OBJECT_NAME, m.LOCK_TYPE, m.LOCK_STATUS, m.OBJECT_TYPE" +
		" FROM performance_schema.metadata_locks m JOIN performance_schema.threads t" +
		" ON t.THREAD_ID = m.OWNER_THREAD_ID WHERE m.OBJECT_TYPE IN ('TABLE', 'GLOBAL', 'COMMIT', 'BACKUP LOCK', 'BACKUP')"
	// mdlInfoQuery lists the granted table, global, commit and backup locks
	// (the plugin shows no waits).
	mdlInfoQuery = "SELECT THREAD_ID, TABLE_SCHEMA, TABLE_NAME, LOCK_MODE, LOCK_TYPE FROM information_schema.METADATA_LOCK_INFO" +
		" WHERE LOCK_TYPE IN ('Table metadata lock', 'Backup lock', 'Global read lock', 'Commit lock')"
)

// mdlHolds reads the metadata locks from the best source: nil holds mean
// none is readable and the holders are inferred (said in l.Notes).
func (c *locks) mdlHolds(ctx context.Context, sess *session, l *snapshot.Locks) ([]infer.MDLHold, error) {
	var why []string
	if c.mdl == mdlUnknown || c.mdl == mdlPerfSchema {
		t, refused, err := c.query(ctx, sess, srcMetadataLocks, metadataLocksQuery)
		if err != nil {
			return nil, err
		}
		if t != nil && len(t.rows) > 0 {
			c.mdl = mdlPerfSchema
			l.Sources[snapshot.LockMetadata] = srcMetadataLocks
			return decodeMetadataLocks(t), nil
		}
		if t != nil {
			// Waiters exist, so an instrumented table would list them.
			refused = "lists nothing (instrument wait/lock/metadata/sql/mdl is off)"
			c.refused.set(srcMetadataLocks, refused, c.now)
		}
		why = append(why, srcMetadataLocks+" "+refused)
	}
	if c.mdl == mdlUnknown || c.mdl == mdlPlugin {
		t, refused, err := c.query(ctx, sess, srcMDLInfo, mdlInfoQuery)
		if err != nil {
			return nil, err
		}
		if t != nil {
			c.mdl = mdlPlugin
			l.Sources[snapshot.LockMetadata] = srcMDLInfo
			return decodeMDLInfo(t), nil
		}
		if refused == "not on this server" {
			refused = "not loaded (INSTALL SONAME 'metadata_lock_info')"
		}
		why = append(why, srcMDLInfo+" "+refused)
	}
	c.mdl = mdlInferred
	l.Sources[snapshot.LockMetadata] = "processlist (inferred)"
	if len(why) > 0 {
		c.mdlWhy = strings.Join(why, "; ")
	}
	note(l, "metadata locks inferred from the processlist: %s", c.mdlWhy)
	return nil, nil
}

func decodeMetadataLocks(t *table) []infer.MDLHold {
	out := make([]infer.MDLHold, 0, len(t.rows))
	for _, r := range t.rows {
		h := infer.MDLHold{Thread: parseInt(cell(r, 0)), Mode: strings.ToUpper(cell(r, 3)),
			Pending: strings.EqualFold(cell(r, 4), "PENDING")}
		if h.Space = mdlSpace(cell(r, 5)); h.Space == "" {
			h.Table = strings.ToLower(cell(r, 1) + "." + cell(r, 2))
		}
		out = append(out, h)
	}
	return out
}

func decodeMDLInfo(t *table) []infer.MDLHold {
	out := make([]infer.MDLHold, 0, len(t.rows))
	for _, r := range t.rows {
		h := infer.MDLHold{Thread: parseInt(cell(r, 0)), Mode: strings.TrimPrefix(strings.ToUpper(cell(r, 3)), "MDL_")}
		if h.Space = mdlSpace(cell(r, 4)); h.Space == "" {
			h.Table = strings.ToLower(cell(r, 1) + "." + cell(r, 2))
		}
		out = append(out, h)
	}
	return out
}

// mdlSpace maps a lock source's object or lock type to a namespace; ""
// for a table (or a row of a source without the column).
func mdlSpace(typ string) string {
	switch strings.ToUpper(typ) {
	case "BACKUP LOCK", "BACKUP":
		return infer.SpaceBackup
	case "GLOBAL READ LOCK", "GLOBAL":
		return infer.SpaceGlobal
	case "COMMIT LOCK", "COMMIT":
		return infer.SpaceCommit
	}
	return ""
}

// lastStatements fills in what idle blockers ran last, from
// performance_schema's current statement (kept after it ends), where the
// server records it: "idle in transaction for 312 s, last: UPDATE ...".
func (c *locks) lastStatements(ctx context.Context, sess *session, s *snapshot.Snapshot, l *snapshot.Locks) error {
	if !sess.Caps.StatementsCurrent || len(l.Threads) == 0 {
		return nil
	}
	idle := idleBlockers(s.Processlist, l)
	if len(idle) == 0 {
		return nil
	}
	list := make([]string, len(idle))
	for i, id := range idle {
		list[i] = strconv.FormatInt(id, 10)
	}
	t, _, err := c.query(ctx, sess, "events_statements_current",
		"SELECT t.PROCESSLIST_ID, s.SQL_TEXT FROM performance_schema.events_statements_current s"+
			" JOIN performance_schema.threads t USING (THREAD_ID) WHERE t.PROCESSLIST_ID IN ("+strings.Join(list, ", ")+")")
	if err != nil || t == nil {
		return err
	}
	for _, r := range t.rows {
		if th := l.Thread(parseInt(cell(r, 0))); th != nil && strings.TrimSpace(cell(r, 1)) != "" {
			th.LastStatement = cell(r, 1)
		}
	}
	return nil
}

// maxLastStatements bounds the threads asked about in one tick.
const maxLastStatements = 20

// idleBlockers are sleeping threads with an open transaction that block someone.
func idleBlockers(ps []snapshot.Process, l *snapshot.Locks) []int64 {
	blockers := map[int64]bool{}
	for _, w := range l.Waits {
		blockers[w.Blocker] = true
	}
	var out []int64
	for i := range ps {
		p := &ps[i]
		if p.Command == "Sleep" && blockers[p.ID] && l.Thread(p.ID) != nil && len(out) < maxLastStatements {
			out = append(out, p.ID)
		}
	}
	return out
}
