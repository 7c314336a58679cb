package collectors

import (
	"context"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// appliedTablesEvery is how long a table's keys are kept before they are
// read again: they change with an ALTER TABLE, not under load.
const appliedTablesEvery = time.Minute

// appliedTables reads the keys of the tables a replica's SQL thread searches
// row by row (an applier in find_row) into Snapshot.AppliedTables, so
// replication_lag can say that the table has no primary key. It sends
// nothing while no applier searches; a table's keys are kept for
// appliedTablesEvery.
type appliedTables struct {
	link  *serverLink
	cache map[string]cachedKeys
}

type cachedKeys struct {
	t  snapshot.AppliedTable
	at time.Time
}

// Name implements Collector.
func (c *appliedTables) Name() snapshot.CollectorName { return snapshot.CollectorAppliedTables }

// Collect implements Collector. It must run after the processlist.
func (c *appliedTables) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	var names []string
	for i := range s.Processlist {
		p := &s.Processlist[i]
		if !strings.EqualFold(p.Command, "Slave_SQL") && !strings.EqualFold(p.Command, "Slave_worker") &&
			p.User != "system user" || !snapshot.SearchesRows(p.State) {
			continue
		}
		for _, n := range snapshot.AppliedTableNames(p) {
			if strings.Contains(n, ".") && !containsName(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	if c.cache == nil {
		c.cache = map[string]cachedKeys{}
	}
	for _, n := range names {
		k, ok := c.cache[n]
		if !ok || s.Time.Sub(k.at) >= appliedTablesEvery {
			t, err := c.read(ctx, n)
			if err != nil {
				return err
			}
			k = cachedKeys{t: t, at: s.Time}
			c.cache[n] = k
		}
		if k.t.Name != "" {
			s.AppliedTables = append(s.AppliedTables, k.t)
		}
	}
	return nil
}

// read lists one table's indexes; a table the server does not list (a
// name the statement parser got wrong) gives an empty AppliedTable.
func (c *appliedTables) read(ctx context.Context, name string) (snapshot.AppliedTable, error) {
	sess := c.link.session()
	if sess == nil {
		return snapshot.AppliedTable{}, errNotConnected
	}
	db, tbl, _ := strings.Cut(name, ".")
	t, err := queryTable(ctx, sess.conn, "SELECT INDEX_NAME, NON_UNIQUE FROM information_schema.STATISTICS"+
		" WHERE TABLE_SCHEMA = '"+escapeLiteral(db)+"' AND TABLE_NAME = '"+escapeLiteral(tbl)+"'"+
		" AND SEQ_IN_INDEX = 1")
	if err := transportError(err); err != nil {
		return snapshot.AppliedTable{}, err
	}
	out := snapshot.AppliedTable{Name: name}
	if err != nil {
		return snapshot.AppliedTable{}, nil
	}
	exists, err := queryTable(ctx, sess.conn, "SELECT 1 FROM information_schema.TABLES"+
		" WHERE TABLE_SCHEMA = '"+escapeLiteral(db)+"' AND TABLE_NAME = '"+escapeLiteral(tbl)+"'")
	if err := transportError(err); err != nil {
		return snapshot.AppliedTable{}, err
	}
	if err != nil || len(exists.rows) == 0 {
		return snapshot.AppliedTable{}, nil
	}
	for _, r := range t.rows {
		if len(r) < 2 {
			continue
		}
		out.Indexes++
		switch {
		case strings.EqualFold(r[0].String, "PRIMARY"):
			out.PrimaryKey = true
		case r[1].String == "0":
			out.UniqueKey = true
		}
	}
	return out, nil
}

// escapeLiteral escapes a name for a quoted string literal.
func escapeLiteral(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s)
}

func containsName(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
