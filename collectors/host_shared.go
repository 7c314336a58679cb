package collectors

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// `serve` and the fleet view run one live source per server, each with its
// own Host collector, and every one of them read this machine's /proc/stat,
// vmstat, diskstats, load, memory and network every second: with 100
// servers on one machine, a tenth of the process's CPU went to reading the
// same files 100 times. A Host therefore takes a sample another Host (of
// the same /proc and /sys) made within hostShareAge instead of reading its
// own. The age is small against the interval, so rates divided by the
// snapshots' own times stay within a few percent; a Host never reuses its
// own sample, so a single server is sampled exactly as before.

// hostShareAge is how old another collector's sample may be to be reused (a
// variable so the test does not depend on the machine's speed).
var hostShareAge atomic.Int64

func init() { hostShareAge.Store(int64(50 * time.Millisecond)) }

type hostRoots struct{ proc, sys string }

type sharedHostSample struct {
	by   *Host
	at   time.Time
	host *snapshot.Host
}

var sharedHost struct {
	sync.Mutex
	last map[hostRoots]sharedHostSample
}

// recentHostSample returns a copy of a sample another Host made at most
// hostShareAge before now, or nil.
func (h *Host) recentHostSample(now time.Time) *snapshot.Host {
	sharedHost.Lock()
	defer sharedHost.Unlock()
	r, ok := sharedHost.last[hostRoots{h.ProcRoot, h.SysRoot}]
	if !ok || r.by == h || now.Sub(r.at) > time.Duration(hostShareAge.Load()) || now.Before(r.at) {
		return nil
	}
	cp := *r.host // each snapshot gets its own: the mysqld figures are added per server
	return &cp
}

// shareHostSample offers this sample to the other Hosts.
func (h *Host) shareHostSample(at time.Time, host *snapshot.Host) {
	sharedHost.Lock()
	defer sharedHost.Unlock()
	if sharedHost.last == nil {
		sharedHost.last = map[hostRoots]sharedHostSample{}
	}
	cp := *host
	sharedHost.last[hostRoots{h.ProcRoot, h.SysRoot}] = sharedHostSample{by: h, at: at, host: &cp}
}
