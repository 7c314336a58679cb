package recording

import (
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestThreadsFormRoundTrips stores runs of thread counters as the writer
// does (differences from the previous frame, keyframes absolute) and decodes
// them as the reader does, frame after frame: every counter comes back
// exactly, whatever it did (moved by pages or by odd bytes, went back,
// jumped by 2^63, appeared, vanished, changed connection).
func TestThreadsFormRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	task := func(tid, conn int64, name string) snapshot.TaskCounters {
		return snapshot.TaskCounters{TID: tid, Conn: conn, Name: name,
			CPUTicks: rng.Uint64N(1e6), ReadBytes: rng.Uint64N(1e9) * 4096, WriteBytes: rng.Uint64N(1e12)}
	}
	tasks := []snapshot.TaskCounters{task(100, 1, ""), task(101, 2, ""), task(7, 0, "purge"), task(8, 0, "")}
	var frames []*snapshot.Threads
	for i := range 30 {
		next := make([]snapshot.TaskCounters, 0, len(tasks)+1)
		for _, c := range tasks {
			switch rng.IntN(12) {
			case 0:
				continue // gone
			case 1:
				c.CPUTicks -= 3 // went back
			case 2:
				c.WriteBytes += 1 << 63
			case 3:
				c.ReadBytes = math.MaxUint64
			case 4:
				c.Conn++ // the thread serves another connection
			case 5:
				c.Name = map[string]string{"": "purge", "purge": ""}[c.Name] // the TID changed hands
			}
			c.CPUTicks += rng.Uint64N(100)
			c.Runnable = rng.IntN(4) == 0
			c.ReadBytes += rng.Uint64N(20) * 4096
			c.WriteBytes += rng.Uint64N(1e6)
			next = append(next, c)
		}
		if rng.IntN(3) == 0 {
			next = append(next, task(int64(1000+i), int64(i), ""))
		}
		tasks = next
		th := &snapshot.Threads{PID: 42, ClockTicks: 100, Process: task(0, 0, ""), Tasks: slicesClone(tasks)}
		if i%7 == 3 {
			th.NoIO = "permission denied"
		}
		if i%11 == 5 {
			th = nil // the collector missed a tick
		}
		if i%13 == 6 {
			th.Tasks = nil
		}
		frames = append(frames, th)
	}
	var form frameForm
	var prev chainState
	for i, th := range frames {
		s := &snapshot.Snapshot{Time: fakeStart.Add(time.Duration(i) * time.Second), Threads: th}
		raw, err := form.encode(s, i%10 == 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := frameChain(raw, prev)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		whole, _, err := decodeFrame(raw, prev)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !reflect.DeepEqual(got.threads, th) || !reflect.DeepEqual(whole.Threads, th) {
			t.Fatalf("frame %d:\n got %+v\nwant %+v", i, got.threads, th)
		}
		prev = got
	}
}

func slicesClone(s []snapshot.TaskCounters) []snapshot.TaskCounters {
	return append([]snapshot.TaskCounters(nil), s...)
}

// TestThreadsFormForgetsAnUnstoredFrame: after a frame that was encoded but
// not stored, the next frame's counters do not refer to it.
func TestThreadsFormForgetsAnUnstoredFrame(t *testing.T) {
	th := func(cpu uint64) *snapshot.Snapshot {
		return &snapshot.Snapshot{Threads: &snapshot.Threads{PID: 1, ClockTicks: 100,
			Tasks: []snapshot.TaskCounters{{TID: 5, Conn: 9, CPUTicks: cpu}}}}
	}
	var form frameForm
	first, _ := form.encode(th(10), true)
	form.encode(th(20), false) // not stored
	form.forget()
	third, _ := form.encode(th(30), false)
	base, err := frameChain(first, chainState{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := frameChain(third, base)
	if err != nil || got.threads.Tasks[0].CPUTicks != 30 {
		t.Fatalf("after a lost frame: %+v, %v", got, err)
	}
}

// TestThreadCountersAreDigits prices a busy connection's second: a few
// ticks of CPU and a few pages written are one character each.
func TestThreadCountersAreDigits(t *testing.T) {
	var form threadsForm
	form.encode(&snapshot.Threads{Tasks: []snapshot.TaskCounters{{TID: 1, Conn: 5, CPUTicks: 2900, WriteBytes: 729088}}}, true)
	st := form.encode(&snapshot.Threads{Tasks: []snapshot.TaskCounters{{TID: 1, Conn: 5, CPUTicks: 2902, WriteBytes: 729088 + 5*4096}}}, false)
	if !st.Rel || st.CPU != "2" || st.WB != "5" || st.RB != "0" {
		t.Errorf("cpu %q wb %q rb %q rel %v", st.CPU, st.WB, st.RB, st.Rel)
	}
	if _, err := readCounters("Z", 1, pageBytes); err == nil {
		t.Error("a digit 32-63 with nothing after it decoded")
	}
	if _, err := readCounters("1", 2, 1); err == nil {
		t.Error("a short column decoded")
	}
}

// TestStatusFormRoundTrips: whole numbers as differences (gauges going down,
// counters wrapping, values turning to text and back), the rest as they are,
// names coming and going; every frame decodes to the map stored.
func TestStatusFormRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	status := map[string]string{"Uptime": "10", "Questions": "0", "Threads_running": "5", "Query_time": "0.5",
		"Rpl_status": "AUTH_MASTER", "Big": "18446744073709551615", "Zeroed": "007"}
	var form frameForm
	var prev chainState
	for i := range 40 {
		next := map[string]string{}
		for k, v := range status {
			if n, ok := wholeNumber(v); ok {
				switch rng.IntN(6) {
				case 0:
					n -= uint64(rng.IntN(3)) // a gauge
				case 1:
					n += 1 << 40
				default:
					n += uint64(rng.IntN(5000))
				}
				v = strconv.FormatUint(n, 10)
				if rng.IntN(15) == 0 {
					v = "-" + v // no longer a whole number
				}
			} else if rng.IntN(4) == 0 {
				v = strconv.Itoa(rng.IntN(100))
			}
			if rng.IntN(30) != 0 {
				next[k] = v
			}
		}
		if i%9 == 4 {
			next[strconv.Itoa(i)+"_new"] = "1"
		}
		status = next
		s := &snapshot.Snapshot{Time: fakeStart.Add(time.Duration(i) * time.Second), Status: maps.Clone(status)}
		if i%13 == 7 {
			s.Status = nil
		}
		raw, err := form.encode(s, i%10 == 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := frameChain(raw, prev)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		whole, _, err := decodeFrame(raw, prev)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		var gotStatus map[string]string
		if got.status != nil {
			gotStatus = got.status.toMap()
		}
		if !reflect.DeepEqual(gotStatus, s.Status) || !reflect.DeepEqual(whole.Status, s.Status) {
			t.Fatalf("frame %d:\n got %v\nwant %v", i, gotStatus, s.Status)
		}
		prev = got
	}
}

// TestDocumentedChainDecodes keeps docs/recording-format.md's example of
// version 3's chain honest.
func TestDocumentedChainDecodes(t *testing.T) {
	raw := `{"time":"2026-12-01T04:00:00Z","server":{},` +
		`"chain": {"th": {"pid": 812, "clk_tck": 100, "process": {"cpu": 2969, "wb": 109613056},
                 "tid": [901, 902, 7], "conn": [5, 6, 0], "name": {"7": "purge"},
                 "rel": true, "cpu": "210", "rb": "000", "wb": "6~1000.0"},
          "st": {"names": ["Questions", "Uptime", "Aborted_clients"], "rel": true,
                 "values": "q_S20", "other": {"Query_time": "478.850466"}}}}`
	prev := chainState{
		threads: &snapshot.Threads{PID: 812, ClockTicks: 100, Tasks: []snapshot.TaskCounters{
			{TID: 901, Conn: 5, CPUTicks: 100, WriteBytes: 4096}, {TID: 7, Name: "purge", CPUTicks: 50}}},
		status: statusStateOf(map[string]string{"Questions": "406512", "Uptime": "46", "Aborted_clients": "3"}),
	}
	s, _, err := decodeFrame([]byte(raw), prev)
	if err != nil {
		t.Fatal(err)
	}
	want := []snapshot.TaskCounters{{TID: 901, Conn: 5, CPUTicks: 102, WriteBytes: 4096 + 6*4096},
		{TID: 902, Conn: 6, CPUTicks: 1, WriteBytes: 1000}, {TID: 7, Name: "purge", CPUTicks: 50}}
	if !reflect.DeepEqual(s.Threads.Tasks, want) || s.Threads.Process.CPUTicks != 2969 {
		t.Errorf("threads %+v", s.Threads)
	}
	if s.Status["Questions"] != "417262" || s.Status["Uptime"] != "47" || s.Status["Aborted_clients"] != "3" ||
		s.Status["Query_time"] != "478.850466" {
		t.Errorf("status %v", s.Status)
	}
}

// statusStateOf is the decoded form of a status map.
func statusStateOf(m map[string]string) *statusState {
	st := &statusState{other: map[string]string{}}
	for k, v := range m {
		if n, ok := wholeNumber(v); ok {
			st.names, st.values = append(st.names, k), append(st.values, n)
		} else {
			st.other[k] = v
		}
	}
	return st
}
