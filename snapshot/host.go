package snapshot

import "fmt"

// Host holds cumulative counters of the machine the server runs on.
type Host struct {
	// Remote is set when the server is not on the machine the monitor runs on;
	// then no host figures are collected, rather than showing the wrong machine.
	Remote bool `json:"remote,omitempty"`
	// NotLocal says why the server was not confirmed to run on this machine
	// when its address could be this machine's (a loopback address that is a
	// tunnel, a socket of another instance, mysqld's process not found);
	// Remote is set with it.
	NotLocal string `json:"not_local,omitempty"`
	Hostname string `json:"hostname,omitempty"`
	NumCPU   int    `json:"num_cpu,omitempty"`

	CPU CPUTimes `json:"cpu"`
	// Load averages. LoadUnknown is set by sources that carry none (vmstat
	// and pt-stalk captures), so they show as missing, not as an idle 0.
	Load1       float64 `json:"load1"`
	Load5       float64 `json:"load5"`
	Load15      float64 `json:"load15"`
	LoadUnknown bool    `json:"load_unknown,omitempty"`
	// ProcsRunning and ProcsBlocked are vmstat's r and b.
	ProcsRunning int64 `json:"procs_running"`
	ProcsBlocked int64 `json:"procs_blocked"`
	// Cumulative counters.
	ContextSwitches uint64 `json:"ctxt"`
	Interrupts      uint64 `json:"intr"`
	SwapInPages     uint64 `json:"pswpin"`
	SwapOutPages    uint64 `json:"pswpout"`
	// Memory in bytes.
	MemTotal     uint64 `json:"mem_total"`
	MemAvailable uint64 `json:"mem_available"`
	MemFree      uint64 `json:"mem_free,omitempty"`
	MemBuffers   uint64 `json:"mem_buffers,omitempty"`
	MemCached    uint64 `json:"mem_cached,omitempty"`
	SwapTotal    uint64 `json:"swap_total"`
	SwapFree     uint64 `json:"swap_free"`

	Disks []DiskCounters `json:"disks,omitempty"`
	Nets  []NetCounters  `json:"nets,omitempty"`
	// Mounts maps the mount points of block devices to the device in Disks
	// that holds them (a partition's whole disk), so rules can tell which
	// device holds the server's datadir, tmpdir, binlog and redo.
	Mounts []Mount `json:"mounts,omitempty"`

	// Mysqld is the server process's own CPU time, when it runs on this
	// machine and its pid file is readable: it says whether mysqld is the
	// process using the CPU.
	Mysqld *ProcessCPU `json:"mysqld,omitempty"`
	// Busiest are the other processes that used the most CPU over the
	// interval before this sample, busiest first: read every tick while the
	// host's CPUs are busy (collectors: busiestIdleMax), so cpu_saturation
	// can say which processes keep a shared host busy when mysqld does not,
	// and every few seconds otherwise (carried between reads), so a host's
	// normal holds which processes use its CPUs.
	Busiest []ProcessUse `json:"busiest,omitempty"`
	// TCP is the host's TCP and IP counters (/proc/net/snmp and
	// /proc/net/netstat live, netstat -s in captures); nil when unknown.
	TCP *TCPCounters `json:"tcp,omitempty"`
}

// ProcessUse is one process's CPU use over an interval.
type ProcessUse struct {
	PID  int    `json:"pid"`
	Name string `json:"name"` // comm, from /proc/<pid>/stat
	// CPUs is CPU seconds a second: 1.0 is one CPU kept busy.
	CPUs float64 `json:"cpus"`
}

// CPUTimes are cumulative seconds spent in each state, summed over all CPUs.
type CPUTimes struct {
	User    float64 `json:"user"`
	Nice    float64 `json:"nice"`
	System  float64 `json:"system"`
	Idle    float64 `json:"idle"`
	IOWait  float64 `json:"iowait"`
	IRQ     float64 `json:"irq"`
	SoftIRQ float64 `json:"softirq"`
	Steal   float64 `json:"steal"`
}

// Total is the sum of all states.
func (c CPUTimes) Total() float64 {
	return c.User + c.Nice + c.System + c.Idle + c.IOWait + c.IRQ + c.SoftIRQ + c.Steal
}

// DiskCounters are /proc/diskstats counters for one block device.
type DiskCounters struct {
	Name       string `json:"name"`
	Reads      uint64 `json:"reads"`
	Writes     uint64 `json:"writes"`
	ReadBytes  uint64 `json:"read_bytes"`
	WriteBytes uint64 `json:"write_bytes"`
	ReadTimeMS uint64 `json:"read_ms"`
	WriteMS    uint64 `json:"write_ms"`
	// IOTimeMS is time the device had I/O in flight (util); WeightedIOMS is the
	// time-weighted queue (avgqu-sz).
	IOTimeMS     uint64 `json:"io_ms"`
	WeightedIOMS uint64 `json:"weighted_io_ms"`
	// Flushes and FlushMS are cache flushes completed and the time they took
	// (kernel 5.5+; zero on older kernels): an fsync's cost at the device.
	Flushes uint64 `json:"flushes,omitempty"`
	FlushMS uint64 `json:"flush_ms,omitempty"`
	// Rotational is /sys/block/<name>/queue/rotational: "1" a spinning disk
	// (or a virtual one that does not say), "0" SSD/NVMe; "" unknown.
	Rotational string `json:"rotational,omitempty"`
}

// Mount is one mounted filesystem on a block device.
type Mount struct {
	Point  string `json:"point"`
	Device string `json:"device"`
}

// NetCounters are cumulative counters for one network interface.
type NetCounters struct {
	Name      string `json:"name"`
	RxBytes   uint64 `json:"rx_bytes"`
	TxBytes   uint64 `json:"tx_bytes"`
	RxPackets uint64 `json:"rx_packets"`
	TxPackets uint64 `json:"tx_packets"`
	// Drops and errors as /proc/net/dev counts them: packets the kernel or
	// the card dropped, and receive or transmit errors.
	RxDrops  uint64 `json:"rx_drops,omitempty"`
	TxDrops  uint64 `json:"tx_drops,omitempty"`
	RxErrors uint64 `json:"rx_errs,omitempty"`
	TxErrors uint64 `json:"tx_errs,omitempty"`
}

// LoadAverages is "1.2 0.9 0.7", or "–" when the source has none.
func (h *Host) LoadAverages() string {
	if h.LoadUnknown {
		return "–"
	}
	return fmt.Sprintf("%.1f %.1f %.1f", h.Load1, h.Load5, h.Load15)
}

// ProcessCPU is mysqld's cumulative CPU time, from /proc/<pid>/stat (or its
// cgroup), and its memory.
type ProcessCPU struct {
	PID           int     `json:"pid"`
	UserSeconds   float64 `json:"user_s"`
	SystemSeconds float64 `json:"system_s"`
	// RSSBytes is the resident size (VmRSS, from the same stat line); 0
	// when unknown.
	RSSBytes uint64 `json:"rss,omitempty"`
	// MemLimit is the tightest memory limit of the cgroups holding mysqld
	// (memory.max, or v1's memory.limit_in_bytes), and MemUsed that
	// cgroup's usage (memory.current, memory.usage_in_bytes); both 0 when
	// no cgroup limits it. Against MemLimit, not MemAvailable, is where a
	// container's mysqld meets the OOM killer.
	MemLimit uint64 `json:"mem_limit,omitempty"`
	MemUsed  uint64 `json:"mem_used,omitempty"`
	// Clients is what waits in the TCP queues of its client connections;
	// nil where not read.
	Clients *ClientQueues `json:"clients,omitempty"`
}

// ClientQueues is what waits in the TCP queues of the server's client
// connections on its port, from the server's own network namespace: bytes
// mysqld has written that its clients have not yet acknowledged (a slow
// link or a slow client holds them there: mysqld has done its part), and
// bytes that arrived that mysqld has not yet read.
type ClientQueues struct {
	Connections int `json:"connections"`
	// Sending is how many connections hold unacknowledged bytes, SendBytes
	// their sum.
	Sending   int    `json:"sending"`
	SendBytes uint64 `json:"send_bytes"`
	RecvBytes uint64 `json:"recv_bytes,omitempty"`
}

// Seconds is user plus system time.
func (p ProcessCPU) Seconds() float64 { return p.UserSeconds + p.SystemSeconds }
