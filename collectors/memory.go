package collectors

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// What holds mysqld's memory where the server says it. information_schema
// TABLES filtered on the engine still opens every table's definition, so it
// is read while the server's own count of its memory (MariaDB's Memory_used)
// grows, and now and then otherwise; the MEMORY tables that grow are what a
// runaway INSERT into one fills.
const (
	memTablesStatement = "SELECT TABLE_SCHEMA, TABLE_NAME, DATA_LENGTH + INDEX_LENGTH, TABLE_ROWS" +
		" FROM information_schema.TABLES WHERE ENGINE = 'MEMORY'" +
		" AND TABLE_SCHEMA NOT IN ('information_schema', 'performance_schema', 'mysql', 'sys')" +
		" ORDER BY 3 DESC LIMIT 5"
	memEventsStatement = "SELECT EVENT_NAME, CURRENT_NUMBER_OF_BYTES_USED" +
		" FROM performance_schema.memory_summary_global_by_event_name ORDER BY 2 DESC LIMIT 5"
	// memGrowth is the rise of Memory_used since the last read that reads
	// again, at most every memMinEvery.
	memGrowth   = 32 << 20
	memMinEvery = 2 * time.Second
	// memRecheck is how often they are read otherwise.
	memRecheck = time.Minute
)

// memoryHolders reads Snapshot.Memory; it runs after status, whose
// Memory_used says when.
type memoryHolders struct {
	link    *serverLink
	last    *snapshot.MemoryHolders
	readAt  time.Time
	used    int64 // Memory_used at the last read
	noEvent bool  // performance_schema cannot be read: do not ask again
}

// Name implements Collector.
func (c *memoryHolders) Name() snapshot.CollectorName { return snapshot.CollectorMemory }

// due says whether to read this tick.
func (c *memoryHolders) due(s *snapshot.Snapshot) bool {
	if c.readAt.IsZero() {
		return true
	}
	since := s.Time.Sub(c.readAt)
	if since >= memRecheck {
		return true
	}
	used, ok := s.StatusInt("Memory_used")
	return ok && used-c.used >= memGrowth && since >= memMinEvery
}

// Collect implements Collector.
func (c *memoryHolders) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	if !c.due(s) {
		s.Memory = c.last
		return nil
	}
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	m := &snapshot.MemoryHolders{ReadAt: s.Time}
	t, err := queryTable(ctx, sess.conn, memTablesStatement)
	if err := transportError(err); err != nil {
		return err
	}
	if err == nil {
		for _, r := range t.rows {
			if len(r) < 4 {
				continue
			}
			m.Tables = append(m.Tables, snapshot.MemoryTable{Name: r[0].String + "." + r[1].String,
				Bytes: atoi64(r[2].String), Rows: atoi64(r[3].String)})
		}
	}
	if ps := s.Variables["performance_schema"]; !c.noEvent && strings.EqualFold(strings.TrimSpace(ps), "ON") {
		t, err := queryTable(ctx, sess.conn, memEventsStatement)
		if err := transportError(err); err != nil {
			return err
		}
		if err != nil {
			c.noEvent = rememberRefusal(err)
		} else {
			for _, r := range t.rows {
				if len(r) >= 2 {
					m.Events = append(m.Events, snapshot.MemoryEvent{Name: r[0].String, Bytes: atoi64(r[1].String)})
				}
			}
		}
	}
	c.readAt, c.last = s.Time, m
	c.used, _ = s.StatusInt("Memory_used")
	s.Memory = m
	return nil
}

func atoi64(s string) int64 {
	v, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return v
}
