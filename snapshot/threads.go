package snapshot

import "time"

// Threads is what the operating system says about mysqld's own threads, read
// from /proc when the server runs on the monitor's machine. Counters are
// cumulative; Delta turns two samples into per-connection rates.
type Threads struct {
	// PID is mysqld's process id on this machine.
	PID int `json:"pid"`
	// ClockTicks is the unit of the CPU counters, per second (USER_HZ).
	ClockTicks int `json:"clk_tck"`
	// Process is the whole mysqld: every thread, including those that exited.
	Process TaskCounters `json:"process"`
	// Tasks are the threads read this tick: the connections that were busy
	// now or within the last two ticks, and the background threads. A
	// connection idle for longer is not read (it spent nothing), so it has no
	// entry and its rates are zero.
	Tasks []TaskCounters `json:"tasks,omitempty"`
	// NoIO is set when the I/O counters could not be read (they need the
	// same user as mysqld, or root); CPU is still there.
	NoIO string `json:"no_io,omitempty"`
	// ReadTime is how long this tick's /proc reads took. Most of them run
	// beside the SQL reads, so it is not all in the collector's latency.
	ReadTime time.Duration `json:"read_ns,omitempty"`
}

// TaskCounters are one thread's (or the process's) cumulative counters.
type TaskCounters struct {
	TID int64 `json:"tid,omitempty"`
	// Conn is the processlist id the thread serves, 0 for a background thread.
	Conn int64 `json:"conn,omitempty"`
	// Name groups background threads: "purge", "page cleaner", "I/O", ...
	Name string `json:"name,omitempty"`
	// CPUTicks is user plus system time in ClockTicks.
	CPUTicks uint64 `json:"cpu"`
	// ReadBytes and WriteBytes are what reached the storage layer
	// (/proc/.../io read_bytes, write_bytes), not page-cache hits.
	ReadBytes  uint64 `json:"rb,omitempty"`
	WriteBytes uint64 `json:"wb,omitempty"`
	// Runnable: the thread was on a CPU or queued for one when read (state
	// R). A session that used little CPU over the interval but is runnable
	// is starved of CPU, not waiting on something in the server.
	Runnable bool `json:"run,omitempty"`
}

// ThreadRates is the per-interval view of two Threads samples.
type ThreadRates struct {
	// Process is the whole of mysqld.
	Process TaskRate `json:"process"`
	// Conns are the connection threads with a rate, sorted by CPU, highest first.
	Conns []TaskRate `json:"conns,omitempty"`
	// Background sums the other threads by name, highest CPU first; "other"
	// is what the process spent beyond every thread that was read (threads
	// that exited, or appeared between samples).
	Background []TaskRate `json:"background,omitempty"`
	// ConnCPU is the sum of Conns' CPU.
	ConnCPU float64 `json:"conn_cpu"`
	// NoIO: I/O rates are unknown (see Threads.NoIO).
	NoIO bool `json:"no_io,omitempty"`

	byConn map[int64]int
}

// TaskRate is a thread's (or a group's) use over the interval.
type TaskRate struct {
	TID  int64  `json:"tid,omitempty"`
	Conn int64  `json:"conn,omitempty"`
	Name string `json:"name,omitempty"`
	// CPU is percent of one core (200 = two cores busy).
	CPU float64 `json:"cpu"`
	// ReadBps and WriteBps are bytes per second to and from storage.
	ReadBps  float64 `json:"read_bps"`
	WriteBps float64 `json:"write_bps"`
	// Runnable is the thread's state at the end of the interval.
	Runnable bool `json:"run,omitempty"`
}

// ForConn returns the rates of a processlist id's thread.
func (t *ThreadRates) ForConn(id int64) (TaskRate, bool) {
	if t == nil {
		return TaskRate{}, false
	}
	if t.byConn == nil { // decoded from JSON rather than made by Delta
		for _, r := range t.Conns {
			if r.Conn == id {
				return r, true
			}
		}
		return TaskRate{}, false
	}
	i, ok := t.byConn[id]
	if !ok {
		return TaskRate{}, false
	}
	return t.Conns[i], true
}
