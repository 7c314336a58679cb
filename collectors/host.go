package collectors

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/shirou/gopsutil/v4/load"
	"github.com/shirou/gopsutil/v4/mem"
	"github.com/shirou/gopsutil/v4/net"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Host samples the machine the monitor runs on: CPU times, run queue,
// context switches and interrupts from /proc/stat, swapping from
// /proc/vmstat, per-disk counters from /proc/diskstats, and load, memory and
// network through gopsutil. When the server is elsewhere it records only
// that (Remote), because this machine's figures would be the wrong ones.
// Collect must not be called concurrently; it reuses its buffers.
type Host struct {
	// Remote forces the server to be treated as on another machine; so does
	// an address that cannot be this machine's (addressMayBeLocal). A local
	// address is only a start: the live source keeps this machine's figures
	// only once mysqld's process confirms the server runs here
	// (mysqldProc.fill).
	Remote bool
	// ProcRoot is where procfs is mounted; "/proc" when empty.
	ProcRoot string
	// SysRoot is where sysfs is mounted; "/sys" when empty.
	SysRoot string

	hostname string
	local    map[string]bool // addressMayBeLocal answers by address
	buf      []byte
	names    map[string]string // device names of earlier samples, reused

	rotational map[string]string // /sys/block/*/queue/rotational by device
	mounts     []snapshot.Mount
	mountsAt   time.Time
}

// hostFor samples this machine only when the server at address runs on it;
// for a remote server the host panel says so instead of showing the wrong
// machine.
func hostFor(address string) *Host { return &Host{Remote: !addressMayBeLocal(address)} }

// Name identifies the collector in Snapshot.Collectors.
func (h *Host) Name() snapshot.CollectorName { return snapshot.CollectorHost }

// Collect fills s.Host. Parts that fail are left zero and reported in the
// returned error; the others are still filled.
func (h *Host) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if h.hostname == "" {
		h.hostname, _ = os.Hostname()
	}
	if h.isRemote(s.Server.Address) {
		s.Host = &snapshot.Host{Remote: true, Hostname: h.hostname}
		return nil
	}
	start := time.Now()
	if shared := h.recentHostSample(start); shared != nil {
		s.Host = shared
		return nil
	}
	out := &snapshot.Host{Hostname: h.hostname}
	var errs []error
	errs = append(errs, h.readProc("stat", func(b []byte) { parseProcStat(b, out) }))
	errs = append(errs, h.readProc("vmstat", func(b []byte) { parseVMStat(b, out) }))
	h.readMounts()
	errs = append(errs, h.readProc("diskstats", func(b []byte) {
		out.Disks = parseDiskstats(b, make([]snapshot.DiskCounters, 0, len(h.names)), h.deviceName, h.mountedLoop)
	}))
	errs = append(errs, fillLoad(ctx, out), fillMemory(ctx, out), fillNets(ctx, out), h.readTCP(out))
	h.fillDevices(out)
	s.Host = out
	err := errors.Join(errs...)
	if err == nil {
		h.shareHostSample(start, out)
	}
	return err
}

// roots are the procfs and sysfs roots the collector reads.
func (h *Host) roots() (proc, sys string) {
	return cmp.Or(h.ProcRoot, "/proc"), cmp.Or(h.SysRoot, "/sys")
}

// readMounts reads the block-device mount table every mountsEvery.
func (h *Host) readMounts() {
	if h.mountsAt.IsZero() || time.Since(h.mountsAt) >= mountsEvery {
		proc, sys := h.roots()
		h.mounts, h.mountsAt = blockMounts(proc, sys), time.Now()
	}
}

// mountedLoop: the loop device dev holds a mounted filesystem.
func (h *Host) mountedLoop(dev []byte) bool {
	for _, m := range h.mounts {
		if m.Device == string(dev) {
			return true
		}
	}
	return false
}

// fillDevices adds each disk's rotational flag (read once per device) and
// the block-device mount table.
func (h *Host) fillDevices(out *snapshot.Host) {
	_, sys := h.roots()
	if h.rotational == nil {
		h.rotational = map[string]string{}
	}
	for i := range out.Disks {
		d := &out.Disks[i]
		r, ok := h.rotational[d.Name]
		if !ok {
			r = rotational(sys, d.Name)
			h.rotational[d.Name] = r
		}
		d.Rotational = r
	}
	out.Mounts = h.mounts
}

func (h *Host) isRemote(addr string) bool {
	if h.Remote {
		return true
	}
	local, ok := h.local[addr]
	if !ok {
		local = addressMayBeLocal(addr)
		if h.local == nil {
			h.local = map[string]bool{}
		}
		h.local[addr] = local
	}
	return !local
}

// readProc reads a procfs file into the reused buffer and hands it to parse.
func (h *Host) readProc(name string, parse func([]byte)) error {
	if h.buf == nil {
		h.buf = make([]byte, 0, 16<<10) // /proc/stat and vmstat fit; larger files grow it once
	}
	b, err := readInto(filepath.Join(cmp.Or(h.ProcRoot, "/proc"), name), h.buf[:0])
	h.buf = b
	if err != nil {
		return err
	}
	parse(b)
	return nil
}

// readInto reads a small file (of /proc: its size is unknown until read)
// into buf, which it grows as needed and returns, for reuse the next tick.
func readInto(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	w := bytes.NewBuffer(buf)
	_, err = w.ReadFrom(f)
	return w.Bytes(), err
}

// deviceName returns the device name as a string, reusing the string of an
// earlier sample so steady state allocates nothing for names.
func (h *Host) deviceName(b []byte) string {
	if s, ok := h.names[string(b)]; ok {
		return s
	}
	if h.names == nil {
		h.names = map[string]string{}
	}
	s := string(b)
	h.names[s] = s
	return s
}

// readTCP fills out.TCP from /proc/net/snmp and /proc/net/netstat; a
// kernel without the second still gives the TCP counters, and one without
// IPv4 (no net/snmp) none, which is not an error.
func (h *Host) readTCP(out *snapshot.Host) error {
	t := &snapshot.TCPCounters{}
	ok := false
	if err := h.readProc("net/snmp", func(b []byte) { ok = parseNetSNMP(b, t) }); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("tcp: %w", err)
	}
	if !ok {
		return fmt.Errorf("tcp: no Tcp lines in net/snmp")
	}
	_ = h.readProc("net/netstat", func(b []byte) { parseNetNetstat(b, t) })
	out.TCP = t
	return nil
}

func fillLoad(ctx context.Context, out *snapshot.Host) error {
	avg, err := load.AvgWithContext(ctx)
	if err != nil {
		return fmt.Errorf("load average: %w", err)
	}
	out.Load1, out.Load5, out.Load15 = avg.Load1, avg.Load5, avg.Load15
	return nil
}

func fillMemory(ctx context.Context, out *snapshot.Host) error {
	vm, err := mem.VirtualMemoryWithContext(ctx)
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	out.MemTotal, out.MemAvailable, out.MemFree = vm.Total, vm.Available, vm.Free
	out.MemBuffers, out.MemCached = vm.Buffers, vm.Cached
	out.SwapTotal, out.SwapFree = vm.SwapTotal, vm.SwapFree
	return nil
}

func fillNets(ctx context.Context, out *snapshot.Host) error {
	nics, err := net.IOCountersWithContext(ctx, true)
	if err != nil {
		return fmt.Errorf("network: %w", err)
	}
	out.Nets = make([]snapshot.NetCounters, 0, len(nics))
	for _, n := range nics {
		out.Nets = append(out.Nets, snapshot.NetCounters{Name: n.Name, RxBytes: n.BytesRecv,
			TxBytes: n.BytesSent, RxPackets: n.PacketsRecv, TxPackets: n.PacketsSent,
			RxDrops: n.Dropin, TxDrops: n.Dropout, RxErrors: n.Errin, TxErrors: n.Errout})
	}
	return nil
}
