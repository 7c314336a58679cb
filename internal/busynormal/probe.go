package busynormal

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Probe measures the server and its host once a second by its own reads
// (SHOW GLOBAL STATUS, /proc), apart from the monitor under test: how busy
// the normal is, and what each fault did, are then facts about the server,
// not the monitor's opinion of it.
type Probe struct {
	db     *sql.DB
	pid    int
	device string // major:minor of the datadir's block device
	mu     sync.Mutex
	taken  []probeSample
}

// probeSample is one reading: cumulative counters and gauges.
type probeSample struct {
	at     time.Time
	status map[string]float64
	// Host counters: the datadir device's milliseconds doing I/O and
	// sectors written; all CPUs' busy and total jiffies; mysqld's jiffies;
	// the host's TCP segments retransmitted.
	ioMillis, sectorsWritten float64
	cpuBusy, cpuTotal        float64
	mysqldCPU                float64
	retrans                  float64
}

// probedStatus are the server's counters and gauges the probe keeps.
var probedStatus = []string{"Com_commit", "Questions", "Innodb_row_lock_waits", "Innodb_row_lock_time",
	"Innodb_row_lock_current_waits", "Threads_running", "Handler_read_rnd_next", "Handler_read_next", "Handler_read_key",
	"Bytes_sent", "Innodb_data_fsyncs", "Com_flush", "Handler_write"}

// NewProbe reads the server at db (whose mysqld has pid and keeps its data
// in datadir) until ctx ends.
func NewProbe(ctx context.Context, db *sql.DB, pid int, datadir string) (*Probe, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(datadir, &st); err != nil {
		return nil, err
	}
	p := &Probe{db: db, pid: pid, device: fmt.Sprintf("%d:%d", major(st.Dev), minor(st.Dev))}
	go p.run(ctx)
	return p, nil
}

func major(dev uint64) uint64 { return (dev >> 8) & 0xfff }
func minor(dev uint64) uint64 { return (dev & 0xff) | ((dev >> 12) & 0xfff00) }

func (p *Probe) run(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		if s, err := p.read(ctx); err == nil {
			p.mu.Lock()
			p.taken = append(p.taken, s)
			p.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (p *Probe) read(ctx context.Context) (probeSample, error) {
	s := probeSample{at: time.Now(), status: map[string]float64{}}
	qctx, cancel := context.WithTimeout(ctx, 900*time.Millisecond)
	defer cancel()
	rows, err := p.db.QueryContext(qctx, "SHOW GLOBAL STATUS WHERE Variable_name IN ('"+strings.Join(probedStatus, "','")+"')")
	if err != nil {
		return s, err
	}
	defer rows.Close()
	for rows.Next() {
		var name, value string
		if rows.Scan(&name, &value) == nil {
			s.status[name], _ = strconv.ParseFloat(value, 64)
		}
	}
	p.readHost(&s)
	return s, rows.Err()
}

// readHost fills the host's counters; a file it cannot read leaves zeros.
func (p *Probe) readHost(s *probeSample) {
	if b, err := os.ReadFile("/proc/diskstats"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) > 12 && f[0]+":"+f[1] == p.device {
				s.sectorsWritten = num(f[9])
				s.ioMillis = num(f[12])
			}
		}
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := bytes.Cut(b, []byte("\n"))
		f := strings.Fields(string(line))
		for i := 1; i < len(f) && i <= 8; i++ {
			s.cpuTotal += num(f[i])
			if i != 4 && i != 5 { // idle, iowait
				s.cpuBusy += num(f[i])
			}
		}
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.pid)); err == nil {
		if _, after, ok := bytes.Cut(b, []byte(") ")); ok {
			f := strings.Fields(string(after))
			if len(f) > 12 {
				s.mysqldCPU = num(f[11]) + num(f[12]) // utime, stime
			}
		}
	}
	if b, err := os.ReadFile("/proc/net/snmp"); err == nil {
		s.retrans = snmpField(string(b), "Tcp:", "RetransSegs")
	}
}

func num(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }

// snmpField reads one counter of /proc/net/snmp, whose protocols each have
// a header line of names and a line of values.
func snmpField(text, proto, name string) float64 {
	var header []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != proto {
			continue
		}
		if header == nil {
			header = f
			continue
		}
		for i := range header {
			if header[i] == name && i < len(f) {
				return num(f[i])
			}
		}
	}
	return 0
}

// Effect is what the server and its host did over a window, per second.
type Effect struct {
	Seconds float64
	// Server: commits, statements, row-lock waits begun and milliseconds
	// spent waiting on row locks (counted as each wait ends), rows read by
	// full scans (Handler_read_rnd_next), rows read by any way
	// (Handler_read_*: MariaDB has no Innodb_rows_read), rows written
	// (Handler_write, temporary tables' too), bytes sent to clients, FLUSH
	// statements.
	Commits, Questions, LockWaits, LockWaitMillis, ScanRows, RowsRead, RowsWritten, BytesSent, Flushes float64
	// ThreadsRunning and CurrentLockWaits are the gauges' means.
	ThreadsRunning, CurrentLockWaits float64
	// Host: the datadir device's utilisation (%) and MB written per
	// second; all CPUs' busy share (%), mysqld's share and the rest's;
	// TCP segments retransmitted per second.
	DiskUtil, DiskWriteMB      float64
	CPUBusy, MysqldCPU, Others float64
	Retrans                    float64
	// Hog is the share (%) of all CPUs the CPU hog's own loops used, where
	// the fault was one (set by inject, not the probe).
	Hog float64 `json:",omitempty"`
}

// Window is the Effect between from and to (the samples within).
func (p *Probe) Window(from, to time.Time) (Effect, bool) {
	p.mu.Lock()
	var in []probeSample
	for _, s := range p.taken {
		if !s.at.Before(from) && !s.at.After(to) {
			in = append(in, s)
		}
	}
	p.mu.Unlock()
	if len(in) < 2 {
		return Effect{}, false
	}
	a, b := in[0], in[len(in)-1]
	dt := b.at.Sub(a.at).Seconds()
	rate := func(name string) float64 { return (b.status[name] - a.status[name]) / dt }
	mean := func(name string) float64 {
		sum := 0.0
		for _, s := range in {
			sum += s.status[name]
		}
		return sum / float64(len(in))
	}
	e := Effect{Seconds: dt,
		Commits: rate("Com_commit"), Questions: rate("Questions"), LockWaits: rate("Innodb_row_lock_waits"),
		LockWaitMillis: rate("Innodb_row_lock_time"), ScanRows: rate("Handler_read_rnd_next"),
		RowsRead:    rate("Handler_read_rnd_next") + rate("Handler_read_next") + rate("Handler_read_key"),
		RowsWritten: rate("Handler_write"), BytesSent: rate("Bytes_sent"), Flushes: rate("Com_flush"),
		ThreadsRunning: mean("Threads_running"), CurrentLockWaits: mean("Innodb_row_lock_current_waits"),
		DiskUtil:    (b.ioMillis - a.ioMillis) / dt / 10,
		DiskWriteMB: (b.sectorsWritten - a.sectorsWritten) * 512 / dt / 1e6,
		Retrans:     (b.retrans - a.retrans) / dt,
	}
	if total := b.cpuTotal - a.cpuTotal; total > 0 {
		e.CPUBusy = 100 * (b.cpuBusy - a.cpuBusy) / total
		e.MysqldCPU = 100 * (b.mysqldCPU - a.mysqldCPU) / total
		e.Others = e.CPUBusy - e.MysqldCPU
	}
	return e, true
}

// String is the effect in one line, for the test log.
func (e Effect) String() string {
	return fmt.Sprintf("%.0f commits/s, %.0f statements/s, %.1f threads running, %.1f row-lock waits/s "+
		"(%.0f ms waited/s, %.1f waiting), %.0f scanned rows/s, %.0f rows read/s, %.0f rows written/s, %.0f KB/s sent, %.1f flushes/s; "+
		"disk %.0f %% busy (%.1f MB/s written), CPU %.0f %% busy (mysqld %.0f %%, others %.0f %%), %.1f TCP retransmits/s",
		e.Commits, e.Questions, e.ThreadsRunning, e.LockWaits, e.LockWaitMillis, e.CurrentLockWaits, e.ScanRows,
		e.RowsRead, e.RowsWritten, e.BytesSent/1024, e.Flushes, e.DiskUtil, e.DiskWriteMB, e.CPUBusy, e.MysqldCPU, e.Others, e.Retrans)
}
