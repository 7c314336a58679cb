package collectors

import (
	"github.com/mytop-go/mytop-go/snapshot"
)

// The host's TCP counters from /proc/net/snmp, and its IP octets from
// /proc/net/netstat. Both files print a header line of names and a line of
// values under the same prefix ("Tcp: RtoAlgorithm RtoMin ..." then
// "Tcp: 1 200 ..."), so a counter is found by its name, whatever the
// kernel's order or additions. They are the counters of the monitor's
// network namespace: the host's when the server runs beside it, which is
// the only case the host collector reads them.

// parseNetSNMP fills t from the Tcp lines of /proc/net/snmp; false when
// there are none.
func parseNetSNMP(data []byte, t *snapshot.TCPCounters) bool {
	return namedCounters(data, "Tcp:", func(name []byte, v uint64) {
		switch string(name) {
		case "ActiveOpens":
			t.ActiveOpens = v
		case "PassiveOpens":
			t.PassiveOpens = v
		case "AttemptFails":
			t.AttemptFails = v
		case "EstabResets":
			t.EstabResets = v
		case "CurrEstab":
			t.CurrEstab = v
		case "InSegs":
			t.InSegs = v
		case "OutSegs":
			t.OutSegs = v
		case "RetransSegs":
			t.RetransSegs = v
		case "InErrs":
			t.InErrs = v
		case "OutRsts":
			t.OutRsts = v
		}
	})
}

// parseNetNetstat fills the IP octets from the IpExt lines of
// /proc/net/netstat.
func parseNetNetstat(data []byte, t *snapshot.TCPCounters) bool {
	return namedCounters(data, "IpExt:", func(name []byte, v uint64) {
		switch string(name) {
		case "InOctets":
			t.InOctets = v
		case "OutOctets":
			t.OutOctets = v
		}
	})
}

// namedCounters pairs the names of the first line starting with prefix
// with the values of the next line that does, and hands each to set.
func namedCounters(data []byte, prefix string, set func(name []byte, v uint64)) bool {
	var names []byte
	for line := range procLines(data) {
		if len(line) < len(prefix) || string(line[:len(prefix)]) != prefix {
			continue
		}
		if names == nil {
			names = line[len(prefix):]
			continue
		}
		vals := line[len(prefix):]
		for {
			var n, v []byte
			n, names = nextField(names)
			v, vals = nextField(vals)
			if len(n) == 0 || len(v) == 0 {
				return true
			}
			set(n, parseUint(v)) // negative values (MaxConn -1) read as 0, unused
		}
	}
	return false
}
