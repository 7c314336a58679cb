package collectors

import (
	"context"
	"database/sql"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// threadMap is which OS thread serves each connection, and what the server
// says of its memory, as one read of the server found them.
type threadMap struct {
	conns map[int64]connThread
	tids  map[int64]bool // the OS threads in conns
	// names are background threads' performance_schema instruments, by TID.
	names map[int64]string
	// shared is set when two connections report the same OS thread: a
	// thread pool, where per-thread figures are not per-connection.
	shared bool
}

type connThread struct {
	tid, memory int64
}

// Statements that map connections to OS threads. MariaDB's
// information_schema.PROCESSLIST has TID and MEMORY_USED (it is written to
// an on-disk temporary table per read, counted in SelfTmpDiskTables, which is
// why it is read every few seconds, not every tick). MySQL 5.7+ and Percona
// have performance_schema.threads.THREAD_OS_ID, also naming background
// threads; MariaDB fills that table only with performance_schema on.
const (
	mariadbThreadsQuery = "SELECT ID, TID, MEMORY_USED FROM information_schema.PROCESSLIST" // read by position
	psThreadsQuery      = "SELECT PROCESSLIST_ID, THREAD_OS_ID, TYPE, NAME FROM performance_schema.threads"
	// MySQL 8.0.31+ also counts each thread's memory (TOTAL_MEMORY).
	psThreadsMemQuery = "SELECT PROCESSLIST_ID, THREAD_OS_ID, TYPE, NAME, TOTAL_MEMORY FROM performance_schema.threads"
	psBackgroundQuery = "SELECT NULL, THREAD_OS_ID, TYPE, NAME FROM performance_schema.threads WHERE TYPE = 'BACKGROUND'"
)

// threadSource remembers which statement a server answers.
type threadSource struct {
	// useIS: information_schema.PROCESSLIST has TID (MariaDB); cleared
	// when it has not, so later reads go to performance_schema directly.
	useIS bool
	// noPSMemory: performance_schema.threads has no TOTAL_MEMORY.
	noPSMemory bool
}

// readThreadMap reads the map from the source the server offers. selfTmp
// counts the temporary tables made.
// psOn says performance_schema is on, which MariaDB needs to name its
// background threads.
func readThreadMap(ctx context.Context, q queryer, src *threadSource, psOn bool) (m threadMap, selfTmp int, err error) {
	m = threadMap{conns: map[int64]connThread{}, tids: map[int64]bool{}, names: map[int64]string{}}
	if src.useIS {
		// Decoded from the driver's bytes: at 5,000 connections a table of
		// strings would be 15,000 of them every map read.
		err := eachRow(ctx, q, mariadbThreadsQuery, func([]string) {}, func(r []sql.RawBytes) {
			m.addConn(leadingInt(at(r, 0)), leadingInt(at(r, 1)), leadingInt(at(r, 2)))
		})
		selfTmp++
		switch {
		case err == nil:
			if !psOn {
				return m, selfTmp, nil
			}
			if t, err := queryTable(ctx, q, psBackgroundQuery); err == nil {
				m.addPerfSchema(t)
			} else if connectionLost(err) {
				return m, selfTmp, err
			}
			return m, selfTmp, nil
		case connectionLost(err) || serverErrno(err) != errBadField:
			return m, selfTmp, err
		}
		src.useIS = false
	}
	if !src.noPSMemory {
		t, err := queryTable(ctx, q, psThreadsMemQuery)
		if err == nil {
			m.addPerfSchema(t)
			return m, selfTmp, nil
		}
		if connectionLost(err) || serverErrno(err) != errBadField {
			return m, selfTmp, err
		}
		src.noPSMemory = true
	}
	t, err := queryTable(ctx, q, psThreadsQuery)
	if err != nil {
		return m, selfTmp, err
	}
	m.addPerfSchema(t)
	return m, selfTmp, nil
}

// errBadField: unknown column (no PROCESSLIST.TID on this server).
const errBadField = 1054

func (m *threadMap) addPerfSchema(t *table) {
	conn, tid, typ, name := t.col("PROCESSLIST_ID"), t.col("THREAD_OS_ID"), t.col("TYPE"), t.col("NAME")
	mem := t.col("TOTAL_MEMORY")
	for _, r := range t.rows {
		os := parseInt(cell(r, tid))
		if os == 0 {
			continue
		}
		if id := parseInt(cell(r, conn)); id != 0 && strings.EqualFold(cell(r, typ), "FOREGROUND") {
			m.addConn(id, os, parseInt(cell(r, mem)))
			continue
		}
		m.names[os] = cell(r, name)
	}
}

func (m *threadMap) addConn(id, tid, memory int64) {
	if id == 0 || tid == 0 {
		return
	}
	if m.tids[tid] {
		m.shared = true
	}
	m.tids[tid] = true
	m.conns[id] = connThread{tid: tid, memory: memory}
}

// apply writes each connection's OS thread and memory into the processlist.
func (m *threadMap) apply(ps []snapshot.Process) {
	for i := range ps {
		if c, ok := m.conns[ps[i].ID]; ok {
			ps[i].OSThread, ps[i].MemoryBytes = c.tid, c.memory
		}
	}
}
