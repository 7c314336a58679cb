package recording

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// fakeServer produces a realistic, deterministic stream of snapshots: a busy
// MariaDB with conns connections that come and go, running statements whose
// literals change every tick, counters that grow, an InnoDB status text that
// quotes the running statements, and a host with two disks.
type fakeServer struct {
	rng       *rand.Rand
	now       time.Time
	conns     int
	nextID    int64
	procs     []snapshot.Process
	statNames []string
	counters  map[string]int64
	vars      map[string]string
	host      snapshot.Host
	lsn       int64
	tick      int
	// literals lists distinctive literals put into queries (for redaction tests).
	literals []string
	// churn scales how often connections come and go and statements change.
	churn float64
	// varsEvery is how many ticks pass between changes of a variable.
	varsEvery int
}

// chance is true with probability pct percent, scaled by churn.
func (f *fakeServer) chance(pct float64) bool { return f.rng.Float64()*100 < pct*f.churn }

var fakeStart = time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)

func newFakeServer(t testing.TB, seed uint64, conns int) *fakeServer {
	t.Helper()
	f := &fakeServer{
		rng: rand.New(rand.NewPCG(seed, 7)), now: fakeStart, conns: conns, nextID: 100,
		counters: map[string]int64{}, vars: map[string]string{}, lsn: 191837870, churn: 1, varsEvery: 1000,
	}
	for _, kv := range readTSV(t, "testdata/status.tsv") {
		f.statNames = append(f.statNames, kv[0])
		n, err := strconv.ParseInt(kv[1], 10, 64)
		if err != nil {
			n = -1 // non-numeric: kept as text
			f.vars["status:"+kv[0]] = kv[1]
		}
		f.counters[kv[0]] = n
	}
	for _, kv := range readTSV(t, "testdata/variables.tsv") {
		f.vars[kv[0]] = kv[1]
	}
	for range conns {
		f.procs = append(f.procs, f.newProc())
	}
	f.host = snapshot.Host{Hostname: "db1", NumCPU: 8, MemTotal: 32 << 30, SwapTotal: 4 << 30,
		Disks: []snapshot.DiskCounters{{Name: "nvme0n1"}, {Name: "sda"}},
		Nets:  []snapshot.NetCounters{{Name: "eth0"}}}
	return f
}

func readTSV(t testing.TB, path string) [][2]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out [][2]string
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "\t")
		if ok {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

var users = []string{"app", "web", "report", "batch"}

func (f *fakeServer) newProc() snapshot.Process {
	f.nextID++
	p := snapshot.Process{
		ID: f.nextID, User: users[f.rng.IntN(len(users))],
		Host: fmt.Sprintf("10.0.%d.%d:%d", f.rng.IntN(4), f.rng.IntN(250), 30000+f.rng.IntN(30000)),
		DB:   "shop", Command: "Sleep", ExaminedRows: 0,
	}
	return p
}

// query returns a statement with fresh, distinctive literals.
func (f *fakeServer) query() string {
	tok := fmt.Sprintf("lit%08x", f.rng.Uint32())
	id := 1000000 + f.rng.IntN(9000000)
	var q string
	switch f.rng.IntN(5) {
	case 0:
		q = fmt.Sprintf("SELECT id, total FROM orders WHERE customer_id = %d AND note = '%s' ORDER BY id DESC LIMIT 20", id, tok)
	case 1:
		q = fmt.Sprintf("UPDATE stock SET qty = qty - 1, touched_by = '%s' WHERE sku = %d", tok, id)
	case 2:
		q = fmt.Sprintf("INSERT INTO events (user_id, kind, payload) VALUES (%d, 'click', '%s')", id, tok)
	case 3:
		q = fmt.Sprintf("SELECT * FROM items WHERE title LIKE '%%%s%%' LIMIT 60000, 20", tok)
	default:
		q = fmt.Sprintf("DELETE FROM sessions WHERE token = \"%s\" AND user_id = %d", tok, id)
	}
	f.literals = append(f.literals, tok)
	return q
}

var states = []string{"Sending data", "executing", "Sorting result", "Waiting for table metadata lock", "Updating"}

// step advances the server by one second of activity.
func (f *fakeServer) step() {
	f.tick++
	f.now = f.now.Add(time.Second)
	for i := range f.procs {
		p := &f.procs[i]
		switch {
		case f.chance(3): // connection churn
			*p = f.newProc()
		case p.Command == "Query" && f.chance(40):
			p.Command, p.State, p.Info, p.TimeMS, p.ExaminedRows = "Sleep", "", "", 0, 0
		case p.Command == "Sleep" && f.chance(30):
			p.Command, p.State, p.Info, p.TimeMS = "Query", states[f.rng.IntN(len(states))], f.query(), int64(f.rng.IntN(900))
		default:
			p.TimeMS += 1000
			if p.Command == "Query" {
				p.ExaminedRows += int64(f.rng.IntN(50000))
			}
		}
	}
	// About a quarter of the status values move in a second on a busy server;
	// the rest (Ssl_*, Aria, wsrep, features) sit still.
	for i, name := range f.statNames {
		if v := f.counters[name]; v >= 0 && i%4 == 0 && !strings.HasPrefix(name, "Threads_") {
			f.counters[name] = v + int64(f.rng.IntN(40))
		}
	}
	f.counters["Questions"] += 1400 + int64(f.rng.IntN(200))
	f.counters["Uptime"]++
	f.stepHost()
}

func (f *fakeServer) stepHost() {
	h := &f.host
	h.CPU.User += 2.5 + f.rng.Float64()
	h.CPU.System += 0.3 + f.rng.Float64()/5
	h.CPU.Idle += 4 + f.rng.Float64()
	h.CPU.IOWait += f.rng.Float64() / 4
	h.ContextSwitches += uint64(40000 + f.rng.IntN(5000))
	h.Interrupts += uint64(20000 + f.rng.IntN(3000))
	h.ProcsRunning, h.ProcsBlocked = int64(f.rng.IntN(9)), int64(f.rng.IntN(2))
	h.Load1 = float64(f.rng.IntN(800)) / 100
	h.MemAvailable = 9<<30 + uint64(f.rng.IntN(1<<20))
	h.SwapFree = 4 << 30
	for i := range h.Disks {
		d := &h.Disks[i]
		r, w := uint64(f.rng.IntN(500)), uint64(f.rng.IntN(300))
		d.Reads, d.Writes = d.Reads+r, d.Writes+w
		d.ReadBytes, d.WriteBytes = d.ReadBytes+r*16384, d.WriteBytes+w*16384
		d.ReadTimeMS, d.WriteMS = d.ReadTimeMS+r/3, d.WriteMS+w/2
		d.IOTimeMS += uint64(f.rng.IntN(900))
		d.WeightedIOMS += uint64(f.rng.IntN(3000))
	}
	h.Nets[0].RxBytes += uint64(f.rng.IntN(1 << 22))
	h.Nets[0].TxBytes += uint64(f.rng.IntN(1 << 23))
}

// snapshot returns the current state. Every varsEvery ticks a variable changes.
func (f *fakeServer) snapshot() *snapshot.Snapshot {
	status := make(map[string]string, len(f.counters))
	for _, name := range f.statNames {
		if v := f.counters[name]; v >= 0 {
			status[name] = strconv.FormatInt(v, 10)
		} else {
			status[name] = f.vars["status:"+name]
		}
	}
	running := 0
	for _, p := range f.procs {
		if p.Command == "Query" {
			running++
		}
	}
	status["Threads_running"] = strconv.Itoa(running)
	status["Threads_connected"] = strconv.Itoa(len(f.procs))
	changed := f.tick%f.varsEvery == 0
	if changed {
		vars := make(map[string]string, len(f.vars))
		for k, v := range f.vars {
			vars[k] = v
		}
		vars["max_connections"] = strconv.Itoa(150 + f.tick/f.varsEvery)
		f.vars = vars
	}
	host := f.host
	host.Disks = append([]snapshot.DiskCounters(nil), f.host.Disks...)
	host.Nets = append([]snapshot.NetCounters(nil), f.host.Nets...)
	return &snapshot.Snapshot{
		Time:        f.now,
		Server:      snapshot.ServerInfo{Address: "db1:3306", Version: "10.11.19-MariaDB", Flavor: "mariadb"},
		Processlist: append([]snapshot.Process(nil), f.procs...),
		Status:      status,
		Variables:   f.vars, VariablesChanged: changed || f.tick == 1,
		InnoDB:     f.innodb(),
		Host:       &host,
		Explains:   f.explains(),
		Collectors: map[snapshot.CollectorName]snapshot.CollectorState{"status": {Latency: 3 * time.Millisecond}, "processlist": {Latency: 5 * time.Millisecond}},
	}
}

func (f *fakeServer) explains() map[string]*snapshot.Explain {
	var out map[string]*snapshot.Explain // nil when empty, as JSON gives it back
	for _, p := range f.procs {
		if p.Command == "Query" && strings.HasPrefix(p.Info, "UPDATE") && p.TimeMS > 5000 {
			out = map[string]*snapshot.Explain{}
			out["update stock"] = &snapshot.Explain{Fingerprint: "update stock set qty = qty - ? where sku = ?",
				ThreadID: p.ID, Statement: p.Info, Method: "SHOW EXPLAIN FOR", At: f.now,
				Rows: []snapshot.ExplainRow{{ID: "1", SelectType: "SIMPLE", Table: "stock", Type: "ALL", Rows: 2104331, Extra: "Using where"}}}
		}
	}
	return out
}

// frame wraps the next snapshot with a finding that quotes a running statement.
func (f *fakeServer) frame(seq int) *snapshot.Frame {
	f.step()
	s := f.snapshot()
	fr := &snapshot.Frame{Seq: seq, Snapshot: s}
	for _, p := range s.Processlist {
		if p.Command == "Query" && len(p.Info) > 40 {
			fr.Findings = []snapshot.Finding{{ID: "full_scan_update", Severity: snapshot.Warning,
				Title:    fmt.Sprintf("%s reads 2.1M rows", p.Info[:40]),
				Evidence: []string{"thread " + strconv.FormatInt(p.ID, 10) + ": " + p.Info}, Since: s.Time}}
			break
		}
	}
	return fr
}
