package baseline

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// sim is a busy server seen by the monitor: sysbench-like traffic with
// noise, 65 sessions running (most in row lock waits), a disk about 90 %
// busy, 1,000 connections, sampled every step. A fault changes some of it
// from a moment on.
type sim struct {
	rng   *rand.Rand
	now   time.Time
	step  time.Duration
	cum   map[string]float64
	host  snapshot.Host
	meter infer.LoadMeter
	prev  *snapshot.Snapshot
	seq   int
	idle  int // sleeping connections
	// fault, active from faultAt, changes the sample being made.
	fault   func(s *sample)
	faultAt time.Time
	uptime  float64
	// routine is the routine work of the last frame made.
	routine []Routine
	// pressure, when set, is the kernel's stall clocks the frames carry.
	pressure *snapshot.Pressure
}

// sample is one interval's truth before it becomes counters.
type sample struct {
	rates   map[string]float64 // per second
	gauges  map[string]float64
	mysqld  float64 // CPUs mysqld keeps busy
	other   float64 // CPUs other processes keep busy
	iowait  float64 // CPUs in iowait
	runq    float64
	blocked float64
	util    float64 // sda busy share
	await   float64 // ms per I/O
	readB   float64 // sda bytes/s read and written
	writeB  float64
	txB     float64 // eth0 bytes/s
	swap    float64
	memAv   float64
	retrans float64 // TCP segments retransmitted a second
	procs   []procSpec
	busiest []snapshot.ProcessUse
	lag     float64
	routine []Routine
	// idleTrx are the sessions caught idle inside an open transaction (the
	// InnoDB status's ACTIVE entries with no statement).
	idleTrx int
	// rowWaiting of the updates' sessions (procs[1]) wait on a row lock,
	// as the lock listing shows them.
	rowWaiting int
	// stallCPU is the share of the interval some task waited for a CPU.
	stallCPU float64
	// clients is mysqld's client connections' TCP queues (nil: not read).
	clients *snapshot.ClientQueues
}

type procSpec struct {
	n            int
	user, host   string
	state, query string
}

var epoch = time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)

func newSim(seed uint64, step time.Duration) *sim {
	return &sim{rng: rand.New(rand.NewPCG(seed, 7)), now: epoch, step: step, cum: map[string]float64{}, idle: 50,
		host: snapshot.Host{NumCPU: 2, MemTotal: 16 << 30}, uptime: 86400}
}

// noise is a factor around 1 with the given relative spread.
func (s *sim) noise(rel float64) float64 { return max(0, 1+rel*s.rng.NormFloat64()) }

func (s *sim) busyNormal() *sample {
	n := s.noise
	return &sample{
		rates: map[string]float64{
			"Questions": 2000 * n(0.08), "Com_insert": 100 * n(0.1), "Com_update": 200 * n(0.1),
			"Com_delete": 100 * n(0.1), "Com_commit": 100 * n(0.1), "Innodb_rows_read": 20000 * n(0.1),
			"Handler_read_rnd_next": 3000 * n(0.3), "Select_scan": 2 * n(0.5), "Bytes_sent": 4e6 * n(0.1),
			"Bytes_received": 5e5 * n(0.1), "Innodb_row_lock_waits": 40 * n(0.2),
			"Innodb_row_lock_time": 20000 * n(0.2), "Table_locks_waited": 0, "Connections": 1 * n(0.5),
			"Innodb_data_read": 2e6 * n(0.2), "Innodb_data_written": 8e6 * n(0.2),
			"Innodb_buffer_pool_pages_flushed": 300 * n(0.2), "Innodb_log_waits": 0, "Com_flush": 0,
			"Opened_tables": 0.1, "Innodb_os_log_fsyncs": 100 * n(0.1),
		},
		gauges: map[string]float64{"Threads_running": 65 * n(0.1), "Innodb_row_lock_current_waits": 40 * n(0.15),
			"Threads_connected": 1065, "Innodb_checkpoint_age": 200e6 * n(0.05)},
		mysqld: 1.2 * n(0.08), other: 0.05 * n(0.3), iowait: 0.2 * n(0.2), runq: 2 + float64(s.rng.IntN(2)),
		blocked: float64(s.rng.IntN(2)), util: min(0.9*n(0.05), 1), await: 4 * n(0.2), readB: 2e6 * n(0.2),
		writeB: 10e6 * n(0.2), txB: 4e6 * n(0.1), memAv: 6e9 * n(0.002), retrans: 2 * n(0.5), idleTrx: 2 + s.seq%4,
		procs: []procSpec{
			{n: 20 + s.rng.IntN(6), user: "app", host: "10.0.0.5", state: "Sending data", query: "SELECT c FROM sbtest1 WHERE id=5"},
			{n: 35 + s.rng.IntN(8), user: "app", host: "10.0.0.6", state: "updating", query: "UPDATE sbtest1 SET k=k+1 WHERE id=7"},
			{n: 5 + s.rng.IntN(3), user: "app", host: "10.0.0.5", state: "update", query: "INSERT INTO sbtest1 VALUES (1,2,'c','p')"},
		},
	}
}

// next makes the next frame, as the pipeline's Builder would.
func (s *sim) next() *snapshot.Frame {
	s.now = s.now.Add(time.Duration(float64(s.step) * s.noise(0.01)))
	dt := s.step.Seconds()
	smp := s.busyNormal()
	if s.fault != nil && !s.now.Before(s.faultAt) {
		s.fault(smp)
	}
	s.uptime += dt
	snap := &snapshot.Snapshot{Time: s.now, Status: map[string]string{"Uptime": strconv.Itoa(int(s.uptime))}}
	for k, v := range smp.rates {
		s.cum[k] += v * dt
		snap.Status[k] = strconv.FormatFloat(float64(int64(s.cum[k])), 'f', 0, 64)
	}
	for k, v := range smp.gauges {
		snap.Status[k] = strconv.Itoa(int(v))
	}
	s.hostStep(smp, dt)
	h := s.host
	h.Disks = []snapshot.DiskCounters{s.host.Disks[0]}
	h.Nets = []snapshot.NetCounters{s.host.Nets[0]}
	tcp := *s.host.TCP
	h.TCP = &tcp
	m := *s.host.Mysqld
	m.Clients = smp.clients
	h.Mysqld = &m
	h.Busiest = smp.busiest
	snap.Host = &h
	if s.pressure != nil {
		s.pressure.CPU.SomeUS += uint64(smp.stallCPU * dt * 1e6)
		p := *s.pressure
		snap.Pressure = &p
	}
	snap.Processlist = s.processlist(smp)
	snap.InnoDB = s.innodb(smp)
	snap.Locks = rowWaits(smp)
	if smp.lag >= 0 {
		snap.Replica = map[string]string{"Seconds_Behind_Master": strconv.Itoa(int(smp.lag)), "Slave_IO_Running": "Yes"}
	}
	f := &snapshot.Frame{Seq: s.seq, Snapshot: snap, Rates: snapshot.Delta(s.prev, snap)}
	f.Load = s.meter.Measure(snap, f.Rates)
	s.prev = snap
	s.seq++
	s.routine = smp.routine
	return f
}

func (s *sim) hostStep(smp *sample, dt float64) {
	h := &s.host
	if h.Mysqld == nil {
		h.Mysqld = &snapshot.ProcessCPU{PID: 1234}
		h.Disks = []snapshot.DiskCounters{{Name: "sda"}}
		h.Nets = []snapshot.NetCounters{{Name: "eth0"}}
		h.TCP = &snapshot.TCPCounters{}
	}
	h.TCP.OutSegs += uint64(5000 * dt)
	h.TCP.InSegs += uint64(5000 * dt)
	h.TCP.RetransSegs += uint64(smp.retrans * dt)
	cpus := float64(h.NumCPU)
	busy := min(smp.mysqld+smp.other, cpus)
	io := min(smp.iowait, cpus-busy)
	h.CPU.User += busy * dt * 0.8
	h.CPU.System += busy * dt * 0.2
	h.CPU.IOWait += io * dt
	h.CPU.Idle += (cpus - busy - io) * dt
	h.Mysqld.UserSeconds += min(smp.mysqld, cpus) * dt
	h.ProcsRunning, h.ProcsBlocked = int64(smp.runq), int64(smp.blocked)
	h.MemAvailable = uint64(smp.memAv)
	h.SwapInPages += uint64(smp.swap * dt)
	d := &h.Disks[0]
	ios := (smp.readB + smp.writeB) / 16384 * dt
	d.Reads += uint64(ios / 4)
	d.Writes += uint64(ios * 3 / 4)
	d.ReadBytes += uint64(smp.readB * dt)
	d.WriteBytes += uint64(smp.writeB * dt)
	d.IOTimeMS += uint64(min(smp.util, 1) * dt * 1000)
	d.ReadTimeMS += uint64(ios / 4 * smp.await)
	d.WriteMS += uint64(ios * 3 / 4 * smp.await)
	h.Nets[0].TxBytes += uint64(smp.txB * dt)
	h.Nets[0].RxBytes += uint64(smp.txB / 8 * dt)
}

func (s *sim) processlist(smp *sample) []snapshot.Process {
	out := make([]snapshot.Process, 0, s.idle+100)
	id := int64(1)
	for _, p := range smp.procs {
		for range p.n {
			out = append(out, snapshot.Process{ID: id, User: p.user, Host: p.host + ":" + fmt.Sprint(40000+id), DB: "sbtest",
				Command: "Query", TimeMS: 5, State: p.state, Info: p.query})
			id++
		}
	}
	for range s.idle {
		out = append(out, snapshot.Process{ID: id, User: "app", Host: "10.0.0.5:1", DB: "sbtest", Command: "Sleep"})
		id++
	}
	return out
}

// innodb is the InnoDB status read this frame: its transaction list, the
// running ones with their statement, the idle ones without.
// rowWaits lists the updates' sessions that wait on a row; nil when none
// do (nothing waited, as live).
func rowWaits(smp *sample) *snapshot.Locks {
	if smp.rowWaiting == 0 {
		return nil
	}
	first := int64(smp.procs[0].n) + 1 // processlist ids run across procs in order
	l := &snapshot.Locks{}
	for i := range min(smp.rowWaiting, smp.procs[1].n) {
		l.Waits = append(l.Waits, snapshot.LockWait{Waiter: first + int64(i), Blocker: first + int64(smp.procs[1].n),
			Kind: snapshot.LockRow, Object: "sbtest.sbtest1 PRIMARY"})
	}
	return l
}

func (s *sim) innodb(smp *sample) *snapshot.InnoDBStatus {
	st := &snapshot.InnoDBStatus{ReadAt: s.now}
	tx := &st.Transactions
	tx.Present = true
	for i := range smp.idleTrx + 10 {
		trx := snapshot.InnoDBTrx{State: "ACTIVE", ThreadID: int64(1000 + i)}
		if i >= smp.idleTrx {
			trx.Query = "UPDATE sbtest1 SET k=k+1 WHERE id=7"
		}
		tx.Trx = append(tx.Trx, trx)
	}
	tx.Count, tx.Active = len(tx.Trx), len(tx.Trx)
	return st
}
