package changes

import "github.com/mytop-go/mytop-go/snapshot"

// KindHost is a figure of the machine or its network: CPU (mysqld's and the
// rest's), run queue, memory, swapping, each disk and interface, TCP
// retransmits and errors. A statement that got slower because another
// process took the disk is only explained by these.
const KindHost Kind = "host"

// hostFactor and the floors say when a host figure moved: ×2 either way,
// at least the floor on one side (a disk going from 1 % to 3 % busy is not
// news; from 30 % to 90 % is).
const hostFactor = 2

// hostFigure is one figure read from a frame, its floor and its unit.
type hostFigure struct {
	name  string
	floor float64
	value float64
}

// hostFigures reads the frame's host figures; nil when it has none.
func hostFigures(f *snapshot.Frame, out []hostFigure) []hostFigure {
	h := f.Snapshot.Host
	if h == nil || h.Remote || f.Rates == nil || f.Rates.Host == nil {
		return out
	}
	r := f.Rates.Host
	c := r.CPU
	out = append(out,
		hostFigure{"host CPU busy %", 10, c.User + c.Nice + c.System + c.IRQ + c.SoftIRQ + c.Steal},
		hostFigure{"host iowait %", 10, c.IOWait},
		hostFigure{"run queue", 2, float64(h.ProcsRunning)},
		hostFigure{"blocked processes", 2, float64(h.ProcsBlocked)},
		hostFigure{"swap pages/s", 50, r.SwapIn + r.SwapOut})
	if h.MemAvailable > 0 {
		out = append(out, hostFigure{"memory available MiB", 256, float64(h.MemAvailable) / (1 << 20)})
	}
	if m := r.Mysqld; m != nil {
		out = append(out, hostFigure{"mysqld CPUs", 0.5, m.CPUs}, hostFigure{"other processes' CPUs", 0.5, m.OtherCPUs})
	}
	for _, d := range r.Disks {
		out = append(out, hostFigure{"disk " + d.Name + " util %", 20, d.UtilPercent},
			hostFigure{"disk " + d.Name + " await ms", 5, d.AwaitMS},
			hostFigure{"disk " + d.Name + " read MiB/s", 5, d.ReadBytes / (1 << 20)},
			hostFigure{"disk " + d.Name + " write MiB/s", 5, d.WriteBytes / (1 << 20)})
	}
	for _, n := range r.Nets {
		out = append(out, hostFigure{"net " + n.Name + " rx MiB/s", 1, n.RxBytes / (1 << 20)},
			hostFigure{"net " + n.Name + " tx MiB/s", 1, n.TxBytes / (1 << 20)},
			hostFigure{"net " + n.Name + " drops and errors/s", 5, n.RxDrops + n.TxDrops + n.RxErrors + n.TxErrors})
	}
	if t := r.TCP; t != nil {
		out = append(out, hostFigure{"TCP retransmits/s", 10, t.RetransSegs},
			hostFigure{"TCP retransmitted %", 0.5, t.RetransPercent},
			hostFigure{"TCP errors/s", 2, t.InErrs})
	}
	return out
}

// hostSum is one figure's time-weighted sum over a window.
type hostSum struct {
	floor, sum, secs float64
}

// addHost sums the frame's host figures, each weighed by its interval.
func (w *Window) addHost(f *snapshot.Frame) {
	w.hostScratch = hostFigures(f, w.hostScratch[:0])
	for _, fig := range w.hostScratch {
		s := w.host[fig.name]
		s.floor = fig.floor
		s.sum += fig.value * f.Rates.Interval
		s.secs += f.Rates.Interval
		w.host[fig.name] = s
	}
}

// hostChanges are the host figures whose average moved.
func hostChanges(before, after *Window) []Change {
	var out []Change
	for name, a := range after.host {
		b, ok := before.host[name]
		if !ok || b.secs <= 0 || a.secs <= 0 {
			continue
		}
		if ch, ok := moved(KindHost, name, "average", b.sum/b.secs, a.sum/a.secs, a.floor, hostFactor); ok {
			out = append(out, ch)
		}
	}
	return out
}
