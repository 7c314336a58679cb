package snapshot

// MysqldRate is mysqld's share of the host over an interval.
type MysqldRate struct {
	// CPUs is mysqld's CPU seconds a second (1.0: one CPU kept busy), and
	// OtherCPUs what every other process used: the host's busy time (user,
	// nice, system, irq, softirq) less mysqld's. A CPU hog outside mysqld
	// raises OtherCPUs, whichever process it is.
	CPUs      float64 `json:"cpus"`
	OtherCPUs float64 `json:"other_cpus"`
	// RSSGrowth is the change of mysqld's resident size, bytes a second
	// (negative when it shrinks); 0 when either sample has no RSS.
	RSSGrowth float64 `json:"rss_growth,omitempty"`
}

func mysqldRate(prev, cur *Host, secs float64) *MysqldRate {
	p, c := prev.Mysqld, cur.Mysqld
	if p == nil || c == nil || p.PID != c.PID {
		return nil
	}
	used := c.Seconds() - p.Seconds()
	if used < 0 {
		return nil
	}
	r := &MysqldRate{CPUs: used / secs}
	if busy := busySeconds(cur.CPU) - busySeconds(prev.CPU); busy > 0 {
		r.OtherCPUs = max(0, busy-used) / secs
	}
	if p.RSSBytes > 0 && c.RSSBytes > 0 {
		r.RSSGrowth = (float64(c.RSSBytes) - float64(p.RSSBytes)) / secs
	}
	return r
}

// busySeconds is the CPU time spent running anything: user, nice, system,
// irq and softirq (not idle, iowait or steal).
func busySeconds(c CPUTimes) float64 {
	return c.User + c.Nice + c.System + c.IRQ + c.SoftIRQ
}
