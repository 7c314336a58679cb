package snapshot

// TCPCounters are the host's cumulative TCP counters (/proc/net/snmp's Tcp
// line, or netstat -s) and its IP octets (/proc/net/netstat's IpExt line):
// retransmits and errors say the network is losing packets, whichever
// interface they cross.
type TCPCounters struct {
	ActiveOpens  uint64 `json:"active_opens"`
	PassiveOpens uint64 `json:"passive_opens"`
	AttemptFails uint64 `json:"attempt_fails"`
	EstabResets  uint64 `json:"estab_resets"`
	// CurrEstab is a gauge: connections established or closing now.
	CurrEstab   uint64 `json:"curr_estab"`
	InSegs      uint64 `json:"in_segs"`
	OutSegs     uint64 `json:"out_segs"`
	RetransSegs uint64 `json:"retrans_segs"`
	InErrs      uint64 `json:"in_errs"`
	OutRsts     uint64 `json:"out_rsts"`
	// InOctets and OutOctets are every IP byte the host received and sent;
	// 0 when the source has none.
	InOctets  uint64 `json:"in_octets,omitempty"`
	OutOctets uint64 `json:"out_octets,omitempty"`
}

// TCPRate is the per-second view of two TCPCounters.
type TCPRate struct {
	ActiveOpens  float64 `json:"active_opens"`
	PassiveOpens float64 `json:"passive_opens"`
	AttemptFails float64 `json:"attempt_fails"`
	EstabResets  float64 `json:"estab_resets"`
	InSegs       float64 `json:"in_segs"`
	OutSegs      float64 `json:"out_segs"`
	RetransSegs  float64 `json:"retrans_segs"`
	InErrs       float64 `json:"in_errs"`
	OutRsts      float64 `json:"out_rsts"`
	InOctets     float64 `json:"in_octets,omitempty"`
	OutOctets    float64 `json:"out_octets,omitempty"`
	// RetransPercent is retransmitted segments per hundred sent: the loss
	// a slowed or lossy network shows first.
	RetransPercent float64 `json:"retrans_pct"`
}

func tcpRate(p, c *TCPCounters, secs float64) *TCPRate {
	if p == nil || c == nil {
		return nil
	}
	r := &TCPRate{}
	ok := counterRates(secs,
		counterField{&r.ActiveOpens, p.ActiveOpens, c.ActiveOpens}, counterField{&r.PassiveOpens, p.PassiveOpens, c.PassiveOpens},
		counterField{&r.AttemptFails, p.AttemptFails, c.AttemptFails}, counterField{&r.EstabResets, p.EstabResets, c.EstabResets},
		counterField{&r.InSegs, p.InSegs, c.InSegs}, counterField{&r.OutSegs, p.OutSegs, c.OutSegs},
		counterField{&r.RetransSegs, p.RetransSegs, c.RetransSegs}, counterField{&r.InErrs, p.InErrs, c.InErrs},
		counterField{&r.OutRsts, p.OutRsts, c.OutRsts}, counterField{&r.InOctets, p.InOctets, c.InOctets},
		counterField{&r.OutOctets, p.OutOctets, c.OutOctets})
	if !ok {
		return nil // counters went back: the host rebooted or the source changed
	}
	if r.OutSegs > 0 {
		r.RetransPercent = 100 * r.RetransSegs / r.OutSegs
	}
	return r
}
