package baseline

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// reading is one frame being read, with the host sample before it (for the
// mysqld process's CPU, a difference of two cumulative samples).
type reading struct {
	f        *snapshot.Frame
	prevHost *snapshot.Host
	secs     float64
	// prevInnoDB is when the InnoDB status the frame before carried was
	// read: a status carried into this frame says nothing new.
	prevInnoDB time.Time
	// hostCarried: the frame holds the host reading the frame before held
	// (a capture's loop that read the host every 2 s carries each reading
	// into the second between).
	hostCarried bool
}

// ownHost reads a host signal only in the frame that read the host. A
// capture's loop slows when the host is busy, so the readings it carries
// are the busy ones: counted again in each frame that carries them, they
// weigh by how long the next reading took, and the normal's bursts widen
// its band (pt-stalk's run queue in the busy normal: 5 s highs of 25
// counted so, 22 from its own readings). A live read that misses a tick
// leaves its frame without the host; a carried reading counts the same.
func ownHost(read func(r *reading) (float64, bool)) func(r *reading) (float64, bool) {
	return func(r *reading) (float64, bool) {
		if r.hostCarried {
			return 0, false
		}
		return read(r)
	}
}

func (r *reading) hostRates() *snapshot.HostRates {
	if r.f.Rates == nil {
		return nil
	}
	return r.f.Rates.Host
}

func hostBusy(r *reading) (float64, bool) {
	h := r.hostRates()
	if h == nil {
		return 0, false
	}
	c := h.CPU
	return c.User + c.Nice + c.System + c.IRQ + c.SoftIRQ + c.Steal, true
}

func hostIOWait(r *reading) (float64, bool) {
	h := r.hostRates()
	if h == nil {
		return 0, false
	}
	return h.CPU.IOWait, true
}

// mysqldCPU is the mysqld process's CPU as a percentage of all the host's
// CPUs, the unit of the host's busy figure, so the two subtract: from the
// rates when the source gives mysqld's (live, pt-stalk's -top), else from
// the two samples' process times.
func mysqldCPU(r *reading) (float64, bool) {
	h := r.f.Snapshot.Host
	if hr := r.hostRates(); hr != nil && hr.Mysqld != nil && h != nil && h.NumCPU > 0 {
		return min(100*hr.Mysqld.CPUs/float64(h.NumCPU), 100), true
	}
	if h == nil || h.Mysqld == nil || r.prevHost == nil || r.prevHost.Mysqld == nil ||
		r.prevHost.Mysqld.PID != h.Mysqld.PID || h.NumCPU <= 0 || r.secs <= 0 {
		return 0, false
	}
	d := h.Mysqld.Seconds() - r.prevHost.Mysqld.Seconds()
	if d < 0 {
		return 0, false
	}
	return min(100*d/r.secs/float64(h.NumCPU), 100), true
}

// otherCPU is the host's busy CPU that mysqld did not use.
func otherCPU(r *reading) (float64, bool) {
	busy, ok1 := hostBusy(r)
	m, ok2 := mysqldCPU(r)
	if !ok1 || !ok2 {
		return 0, false
	}
	return max(busy-m, 0), true
}

// busiestOthersCPU is the share of all the host's CPUs its three busiest
// processes outside mysqld used. A host's own work outside mysqld (agents,
// cron, collectors, the application) is spread over many processes, each
// a little; a process burning the CPUs is one or a few taking most of
// them. On a host whose CPUs were already busy with that spread, the hog
// moves the total little (it can only take what was idle, and the normal's
// bursts reach the same total) but this share a lot.
func busiestOthersCPU(r *reading) (float64, bool) {
	h := r.f.Snapshot.Host
	if h == nil || h.Remote || h.NumCPU <= 0 {
		return 0, false
	}
	sum := 0.0
	for _, p := range h.Busiest[:min(3, len(h.Busiest))] {
		sum += p.CPUs
	}
	return min(100*sum/float64(h.NumCPU), 100), true
}

// stall reads one resource's "some" stall share from the frame's pressure
// rates, when the source reads the kernel's.
func stall(of func(*snapshot.PressureRates) snapshot.StallRate) func(r *reading) (float64, bool) {
	return func(r *reading) (float64, bool) {
		// A carried reading says nothing new, as a carried host reading.
		if r.f.Rates == nil || r.f.Rates.Pressure == nil || snapshot.PressureCarried(r.f.Snapshot) {
			return 0, false
		}
		return of(r.f.Rates.Pressure).Some, true
	}
}

func cpuStallOf(p *snapshot.PressureRates) snapshot.StallRate { return p.CPU }
func ioStallOf(p *snapshot.PressureRates) snapshot.StallRate  { return p.IO }
func memStallOf(p *snapshot.PressureRates) snapshot.StallRate { return p.Memory }

func runQueue(r *reading) (float64, bool) {
	h := r.f.Snapshot.Host
	if h == nil || h.Remote {
		return 0, false
	}
	return float64(h.ProcsRunning), true
}

func blocked(r *reading) (float64, bool) {
	h := r.f.Snapshot.Host
	if h == nil || h.Remote {
		return 0, false
	}
	return float64(h.ProcsBlocked), true
}

func memAvailable(r *reading) (float64, bool) {
	h := r.f.Snapshot.Host
	if h == nil || h.MemAvailable == 0 {
		return 0, false
	}
	return float64(h.MemAvailable), true
}

func swapping(r *reading) (float64, bool) {
	h := r.hostRates()
	if h == nil {
		return 0, false
	}
	return h.SwapIn + h.SwapOut, true
}

func mysqldRSS(r *reading) (float64, bool) {
	h := r.f.Snapshot.Host
	if h == nil || h.Mysqld == nil || h.Mysqld.RSSBytes == 0 {
		return 0, false
	}
	return float64(h.Mysqld.RSSBytes), true
}

// tcp reads one of the host's TCP rates, from the frame that read them.
func tcp(pick func(*snapshot.TCPRate) float64) func(r *reading) (float64, bool) {
	return ownHost(func(r *reading) (float64, bool) {
		h := r.hostRates()
		if h == nil || h.TCP == nil {
			return 0, false
		}
		return pick(h.TCP), true
	})
}

// clientQueue reads one figure of mysqld's client connections' TCP
// queues, where the source read them.
func clientQueue(pick func(*snapshot.ClientQueues) float64) func(r *reading) (float64, bool) {
	return ownHost(func(r *reading) (float64, bool) {
		h := r.f.Snapshot.Host
		if h == nil || h.Remote || h.Mysqld == nil || h.Mysqld.Clients == nil {
			return 0, false
		}
		return pick(h.Mysqld.Clients), true
	})
}
