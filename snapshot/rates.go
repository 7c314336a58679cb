package snapshot

import (
	"strconv"
	"time"
)

// Rates is the per-second view of two consecutive snapshots.
type Rates struct {
	// Interval is the seconds between the two snapshots.
	Interval float64 `json:"interval"`
	// Reset is set when the server restarted or counters went backwards
	// (FLUSH STATUS): rates of the counters that went back are absent, never
	// negative or huge.
	Reset bool `json:"reset,omitempty"`
	// Status holds per-second rates of numeric status counters. Gauges
	// (Threads_running) get a rate too but are meant to be read from the Snapshot.
	Status map[string]float64 `json:"status,omitempty"`
	Host   *HostRates         `json:"host,omitempty"`
	// Threads is mysqld's CPU and I/O per connection and per background
	// thread; nil when the source has no per-thread figures.
	Threads *ThreadRates `json:"threads,omitempty"`
	// Pressure is the share of the interval tasks stalled on each resource;
	// nil when the source has no pressure readings.
	Pressure *PressureRates `json:"pressure,omitempty"`
}

// HostRates is the per-second view of two Host samples.
type HostRates struct {
	// CPU is percent of all CPUs' time in each state (sums to ~100).
	CPU             CPUTimes   `json:"cpu"`
	ContextSwitches float64    `json:"ctxt"`
	Interrupts      float64    `json:"intr"`
	SwapIn          float64    `json:"pswpin"` // pages per second
	SwapOut         float64    `json:"pswpout"`
	Disks           []DiskRate `json:"disks,omitempty"`
	Nets            []NetRate  `json:"nets,omitempty"`
	// TCP is the host's TCP segments, retransmits and errors a second; nil
	// when the source has no TCP counters.
	TCP *TCPRate `json:"tcp,omitempty"`
	// Mysqld is mysqld's CPU and memory growth against the rest of the
	// host; nil when mysqld's own figures are not in both samples.
	Mysqld *MysqldRate `json:"mysqld,omitempty"`
}

// DiskRate is iostat's view of one device.
type DiskRate struct {
	Name         string  `json:"name"`
	ReadsPerSec  float64 `json:"r_s"`
	WritesPerSec float64 `json:"w_s"`
	ReadBytes    float64 `json:"rb_s"`
	WriteBytes   float64 `json:"wb_s"`
	// UtilPercent is the share of wall time the device was busy.
	UtilPercent float64 `json:"util"`
	// AwaitMS is the mean time per completed I/O (queue plus service).
	AwaitMS    float64 `json:"await_ms"`
	QueueDepth float64 `json:"aqu_sz"`
}

// NetRate is one interface's throughput, drops and errors a second.
type NetRate struct {
	Name      string  `json:"name"`
	RxBytes   float64 `json:"rx_bytes"`
	TxBytes   float64 `json:"tx_bytes"`
	RxPackets float64 `json:"rx_packets"`
	TxPackets float64 `json:"tx_packets"`
	RxDrops   float64 `json:"rx_drops,omitempty"`
	TxDrops   float64 `json:"tx_drops,omitempty"`
	RxErrors  float64 `json:"rx_errs,omitempty"`
	TxErrors  float64 `json:"tx_errs,omitempty"`
}

// Delta computes the per-second view from prev to cur. It is the only place rates
// are computed, live and in replay alike. It returns nil when no interval can be
// measured (no previous sample, or clocks not moving forward).
func Delta(prev, cur *Snapshot) *Rates {
	if prev == nil || cur == nil {
		return nil
	}
	secs := cur.Time.Sub(prev.Time).Seconds()
	if secs <= 0 {
		return nil
	}
	r := &Rates{Interval: secs}
	if restarted(prev, cur) {
		r.Reset = true
	} else {
		r.Status = statusRates(prev.Status, cur.Status, secs, &r.Reset)
	}
	r.Host = hostRates(prev.Host, cur.Host, secs)
	r.Pressure = pressureRates(prev.Pressure, cur.Pressure, secs)
	r.Threads = threadRates(prev.Threads, cur.Threads, secs)
	return r
}

// restarted is true when cur is another lifetime of the server than prev:
// every counter restarted from zero.
func restarted(prev, cur *Snapshot) bool { return NewLifetime(prev, cur) }

// bootSlack is how far two samples' boot times (sample time less Uptime) may
// differ in one lifetime: Uptime counts whole seconds, and a sample's time is
// taken around its reads.
const bootSlack = 3 * time.Second

// NewLifetime reports whether cur was taken from a later run of the server
// than prev: its Uptime went down, or, across a gap the monitor could not
// sample (a restart while the server was unreachable, whose Uptime may have
// passed prev's by the time it answers), its boot time moved. Counters of two
// lifetimes must never be subtracted.
func NewLifetime(prev, cur *Snapshot) bool {
	pu, ok1 := prev.Uptime()
	cu, ok2 := cur.Uptime()
	if !ok1 || !ok2 {
		return false
	}
	if cu < pu {
		return true
	}
	// In one lifetime Uptime grows by the gap; a later boot makes it grow
	// less by at least prev's Uptime. A quarter of the gap spares captures
	// whose sample times are approximate.
	gap := cur.Time.Sub(prev.Time)
	grew := time.Duration(cu-pu) * time.Second
	return gap-grew > max(bootSlack, gap/4)
}

func statusRates(prev, cur map[string]string, secs float64, reset *bool) map[string]float64 {
	if len(prev) == 0 || len(cur) == 0 {
		return nil
	}
	out := make(map[string]float64, len(cur))
	for name, raw := range cur {
		pRaw, ok := prev[name]
		if !ok {
			continue
		}
		if raw == pRaw && plainDecimal(raw) {
			out[name] = 0 // most counters stand still from one second to the next
			continue
		}
		c, err1 := strconv.ParseFloat(raw, 64)
		p, err2 := strconv.ParseFloat(pRaw, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		if c < p {
			if IsCounter(name) {
				*reset = true
			}
			continue
		}
		out[name] = (c - p) / secs
	}
	return out
}

// plainDecimal reports digits with at most one '.' and a leading '-': a
// value that parses to a finite number equal to itself, so an unchanged one
// has a rate of exactly 0 without parsing it twice. Live collectors share an
// unchanged value's string with the previous tick, which makes the equality
// test a pointer comparison.
func plainDecimal(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// counterRate is the per-second increase of a cumulative counter; ok is false
// when the counter went backwards (reset or wrap).
// counterField is one counter's rate to compute: where it goes, and the
// counter in the previous and the current sample.
type counterField struct {
	dst  *float64
	p, c uint64
}

// counterRates sets each field's rate; false when any counter went back
// (the host rebooted, or the source changed), which voids them all.
func counterRates(secs float64, fs ...counterField) bool {
	ok := true
	for _, f := range fs {
		v, good := counterRate(f.p, f.c, secs)
		*f.dst, ok = v, ok && good
	}
	return ok
}

func counterRate(prev, cur uint64, secs float64) (float64, bool) {
	if cur < prev {
		return 0, false
	}
	return float64(cur-prev) / secs, true
}

// HostDelta is the host's per-second view from the reading prev to cur,
// secs apart; nil when either is missing or remote.
func HostDelta(prev, cur *Host, secs float64) *HostRates { return hostRates(prev, cur, secs) }

// PressureDelta is the stall clocks' share of wall time from the reading
// prev to cur, secs apart; nil when either is missing or a counter went back.
func PressureDelta(prev, cur *Pressure, secs float64) *PressureRates {
	return pressureRates(prev, cur, secs)
}

// SameHostReading says cur is prev's reading again, not a new one: a
// capture carries its last sample into the seconds its loop skipped, and a
// recording of it holds copies. A real host's CPU clock always advances
// between two readings, so equal CPU times are the same reading.
func SameHostReading(prev, cur *Host) bool {
	return prev == cur || prev != nil && cur != nil && prev.CPU.Total() > 0 && prev.CPU == cur.CPU
}

func hostRates(prev, cur *Host, secs float64) *HostRates {
	if prev == nil || cur == nil || prev.Remote || cur.Remote {
		return nil
	}
	h := &HostRates{CPU: cpuPercent(prev.CPU, cur.CPU)}
	h.ContextSwitches, _ = counterRate(prev.ContextSwitches, cur.ContextSwitches, secs)
	h.Interrupts, _ = counterRate(prev.Interrupts, cur.Interrupts, secs)
	h.SwapIn, _ = counterRate(prev.SwapInPages, cur.SwapInPages, secs)
	h.SwapOut, _ = counterRate(prev.SwapOutPages, cur.SwapOutPages, secs)
	h.Disks = diskRates(prev.Disks, cur.Disks, secs)
	h.Nets = netRates(prev.Nets, cur.Nets, secs)
	h.TCP = tcpRate(prev.TCP, cur.TCP, secs)
	h.Mysqld = mysqldRate(prev, cur, secs)
	return h
}

func cpuPercent(p, c CPUTimes) CPUTimes {
	total := c.Total() - p.Total()
	if total <= 0 {
		return CPUTimes{}
	}
	pct := func(a, b float64) float64 {
		if b < a {
			return 0
		}
		return (b - a) / total * 100
	}
	return CPUTimes{
		User: pct(p.User, c.User), Nice: pct(p.Nice, c.Nice), System: pct(p.System, c.System),
		Idle: pct(p.Idle, c.Idle), IOWait: pct(p.IOWait, c.IOWait), IRQ: pct(p.IRQ, c.IRQ),
		SoftIRQ: pct(p.SoftIRQ, c.SoftIRQ), Steal: pct(p.Steal, c.Steal),
	}
}

// pairRates matches devices (or threads) by key across two samples (one may
// appear or vanish between them) and keeps the rates that could be computed.
func pairRates[C any, R any, K comparable](prev, cur []C, key func(C) K, rate func(p, c C) (R, bool)) []R {
	byKey := make(map[K]C, len(prev))
	for _, p := range prev {
		byKey[key(p)] = p
	}
	var out []R
	for _, c := range cur {
		p, ok := byKey[key(c)]
		if !ok {
			continue
		}
		if r, ok := rate(p, c); ok {
			out = append(out, r)
		}
	}
	return out
}

func diskRates(prev, cur []DiskCounters, secs float64) []DiskRate {
	return pairRates(prev, cur, func(d DiskCounters) string { return d.Name },
		func(p, c DiskCounters) (DiskRate, bool) { return diskRate(p, c, secs) })
}

func diskRate(p, c DiskCounters, secs float64) (DiskRate, bool) {
	r := DiskRate{Name: c.Name}
	var ok [7]bool
	r.ReadsPerSec, ok[0] = counterRate(p.Reads, c.Reads, secs)
	r.WritesPerSec, ok[1] = counterRate(p.Writes, c.Writes, secs)
	r.ReadBytes, ok[2] = counterRate(p.ReadBytes, c.ReadBytes, secs)
	r.WriteBytes, ok[3] = counterRate(p.WriteBytes, c.WriteBytes, secs)
	busy, ok4 := counterRate(p.IOTimeMS, c.IOTimeMS, secs)
	ok[4] = ok4
	r.UtilPercent = min(busy/10, 100) // ms busy per second -> percent
	q, ok5 := counterRate(p.WeightedIOMS, c.WeightedIOMS, secs)
	ok[5] = ok5
	r.QueueDepth = q / 1000
	ios := float64((c.Reads - p.Reads) + (c.Writes - p.Writes))
	ok[6] = c.ReadTimeMS >= p.ReadTimeMS && c.WriteMS >= p.WriteMS
	if ios > 0 && ok[6] {
		r.AwaitMS = float64((c.ReadTimeMS-p.ReadTimeMS)+(c.WriteMS-p.WriteMS)) / ios
	}
	for _, v := range ok {
		if !v {
			return DiskRate{}, false
		}
	}
	return r, true
}

func netRates(prev, cur []NetCounters, secs float64) []NetRate {
	return pairRates(prev, cur, func(n NetCounters) string { return n.Name },
		func(p, c NetCounters) (NetRate, bool) {
			r := NetRate{Name: c.Name}
			ok := counterRates(secs,
				counterField{&r.RxBytes, p.RxBytes, c.RxBytes}, counterField{&r.TxBytes, p.TxBytes, c.TxBytes},
				counterField{&r.RxPackets, p.RxPackets, c.RxPackets}, counterField{&r.TxPackets, p.TxPackets, c.TxPackets},
				counterField{&r.RxDrops, p.RxDrops, c.RxDrops}, counterField{&r.TxDrops, p.TxDrops, c.TxDrops},
				counterField{&r.RxErrors, p.RxErrors, c.RxErrors}, counterField{&r.TxErrors, p.TxErrors, c.TxErrors})
			return r, ok
		})
}

// Rate returns a status counter's per-second rate from r, tolerating nil.
func (r *Rates) Rate(name string) (float64, bool) {
	if r == nil || r.Status == nil {
		return 0, false
	}
	v, ok := r.Status[name]
	return v, ok
}

// Since returns how long ago t was relative to the snapshot.
func (s *Snapshot) Since(t time.Time) time.Duration { return s.Time.Sub(t) }
