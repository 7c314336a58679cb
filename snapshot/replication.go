package snapshot

import (
	"net"
	"strconv"
	"strings"
)

// Channel is one replication channel as a DBA reads it, decoded from the row
// SHOW ALL REPLICAS STATUS (MariaDB) or SHOW REPLICA STATUS (MySQL, one row
// per channel) printed. The recording keeps the row itself (Raw), so a
// field decoded later is there in old recordings too.
type Channel struct {
	// Name is MariaDB's Connection_name or MySQL's Channel_Name; "" is the
	// default channel.
	Name string
	// Source is the source's host:port.
	Source string
	// IORunning and SQLRunning are Yes, No or Connecting (IO only).
	IORunning, SQLRunning string
	// IOState and SQLState are what each thread says it is doing.
	IOState, SQLState string
	// Behind is Seconds_Behind_Master/Source; BehindKnown is false for NULL
	// (a thread not running, or nothing fetched yet).
	Behind      int64
	BehindKnown bool
	// Delay is SQL_Delay: a replica kept late on purpose.
	Delay int64
	// GTID positions: fetched (Gtid_IO_Pos / Retrieved_Gtid_Set) and applied
	// (Gtid_Slave_Pos / Executed_Gtid_Set).
	GTIDFetched, GTIDApplied string
	// Errors of each thread; the number is 0 without error.
	LastIOErrno, LastSQLErrno int64
	LastIOError, LastSQLError string
	RelayLogSpace             int64
	// ParallelMode is MariaDB's Parallel_Mode (the worker count is a global
	// variable, see ParallelWorkers).
	ParallelMode string
	// Workers is the channel's applier worker count and how many run
	// (MySQL performance_schema, added to the row by the collector); "".
	Workers, WorkersRunning string
	// Applying is the transaction (GTID) the workers apply, MySQL only.
	Applying string
	Raw      map[string]string
}

// Lag is how far the channel is behind net of its intended delay; ok is
// false when the server does not know (NULL).
func (c Channel) Lag() (secs int64, ok bool) {
	if !c.BehindKnown {
		return 0, false
	}
	return max(c.Behind-c.Delay, 0), true
}

// Label names the channel for a sentence: 'name' or "default channel".
func (c Channel) Label() string {
	if c.Name == "" {
		return "default channel"
	}
	return "channel '" + c.Name + "'"
}

// Running reports whether a thread state reads as running. An IO thread
// Connecting without an error is starting; with one it is retrying a
// source it cannot reach, which is not running.
func threadRunning(v string, errno int64) bool {
	switch strings.ToLower(v) {
	case "yes":
		return true
	case "connecting":
		return errno == 0
	}
	return false
}

// IOOK and SQLOK report whether each thread runs.
func (c Channel) IOOK() bool  { return threadRunning(c.IORunning, c.LastIOErrno) }
func (c Channel) SQLOK() bool { return threadRunning(c.SQLRunning, 0) }

// Channels returns every replication channel of s, in the order the server
// listed them: ReplicaChannels, or the single Replica row of recordings and
// captures made before channels were read.
func (s *Snapshot) Channels() []Channel {
	rows := s.ReplicaChannels
	if len(rows) == 0 && s.Replica != nil {
		rows = []map[string]string{s.Replica}
	}
	out := make([]Channel, 0, len(rows))
	for _, r := range rows {
		out = append(out, DecodeChannel(r))
	}
	return out
}

// DecodeChannel reads one status row, in either vendor's spelling.
func DecodeChannel(r map[string]string) Channel {
	c := Channel{Raw: r}
	c.Name = pick(r, "Connection_name", "Channel_Name", "Channel_name")
	host, port := pick(r, "Master_Host", "Source_Host"), pick(r, "Master_Port", "Source_Port")
	if host != "" {
		c.Source = host
		if port != "" {
			c.Source = net.JoinHostPort(host, port)
		}
	}
	c.IORunning = pick(r, "Slave_IO_Running", "Replica_IO_Running")
	c.SQLRunning = pick(r, "Slave_SQL_Running", "Replica_SQL_Running")
	c.IOState = pick(r, "Slave_IO_State", "Replica_IO_State")
	c.SQLState = pick(r, "Slave_SQL_Running_State", "Replica_SQL_Running_State")
	c.Behind, c.BehindKnown = pickInt(r, "Seconds_Behind_Master", "Seconds_Behind_Source")
	c.Delay, _ = pickInt(r, "SQL_Delay")
	c.GTIDFetched = pick(r, "Gtid_IO_Pos", "Retrieved_Gtid_Set")
	c.GTIDApplied = pick(r, "Gtid_Slave_Pos", "Executed_Gtid_Set")
	c.LastIOErrno, _ = pickInt(r, "Last_IO_Errno")
	c.LastSQLErrno, _ = pickInt(r, "Last_SQL_Errno")
	c.LastIOError = pick(r, "Last_IO_Error")
	c.LastSQLError = pick(r, "Last_SQL_Error")
	if c.LastSQLError == "" && c.LastSQLErrno == 0 {
		// Servers before 5.5 print only Last_Errno/Last_Error (the SQL thread's).
		c.LastSQLErrno, _ = pickInt(r, "Last_Errno")
		c.LastSQLError = pick(r, "Last_Error")
	}
	c.RelayLogSpace, _ = pickInt(r, "Relay_Log_Space")
	c.ParallelMode = pick(r, "Parallel_Mode")
	c.Workers, c.WorkersRunning = pick(r, "Applier_Workers"), pick(r, "Applier_Workers_Running")
	c.Applying = pick(r, "Applying_Transaction")
	return c
}

// ParallelWorkers is the applier worker count the variables give (MySQL
// replica_parallel_workers, MariaDB slave_parallel_threads), or "".
func (s *Snapshot) ParallelWorkers() string {
	for _, k := range []string{"replica_parallel_workers", "slave_parallel_workers", "slave_parallel_threads"} {
		if v, ok := s.Variables[k]; ok {
			return v
		}
	}
	return ""
}

func pick(m map[string]string, keys ...string) string {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func pickInt(m map[string]string, keys ...string) (int64, bool) {
	v := pick(m, keys...)
	if v == "" || strings.EqualFold(v, "NULL") {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}
