package recording

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// FuzzReader opens arbitrary bytes as a recording: it must fail with an error
// or read what it can, never panic. (go test's exec counter lags badly with
// this binary's coverage size; executions run at a few hundred per second.)
func FuzzReader(f *testing.F) {
	valid := filepath.Join(f.TempDir(), "seed.mytop")
	writeFrames(f, valid, 3, WriterOptions{KeyframeEvery: 2})
	seed, err := os.ReadFile(valid)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(sqliteMagic))
	f.Add([]byte{})
	f.Add(append([]byte(sqliteMagic), make([]byte, 4096)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.mytop")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := Open(path)
		if err != nil {
			return
		}
		defer r.Close()
		for i := range min(r.Len(), 50) {
			r.Snapshot(i)
		}
		first, last := r.TimeRange()
		r.Seek(first.Add(last.Sub(first) / 2))
		r.Seek(time.Time{})
		r.Refresh()
		r.Gaps()
	})
}

// FuzzDecodeFrame parses arbitrary bytes as a stored frame: the column form
// must fail with an error, never panic or index out of range.
func FuzzDecodeFrame(f *testing.F) {
	for _, raw := range storedFrames(f, newFakeServer(f, 8, 5), 2) {
		f.Add(raw)
	}
	f.Add([]byte(`{"pl":{"strings":[],"activities":"","id":[1],"user":"0","host":"0","db":"0","activity":"0","since_ms":[0]}}`))
	f.Add([]byte(`{"time":"2026-12-01T04:00:00Z","chain":{"th":{"pid":1,"clk_tck":100,"process":{"cpu":5},"tid":[7,8],"conn":[3,0],` +
		`"name":{"8":"purge"},"rel":true,"cpu":"1X~99.","rb":"00","wb":"0"},"st":{"names":["Uptime","Questions"],"rel":true,"values":"2Z0","other":{"Query_time":"1.5"}}}}`))
	prev := chainState{threads: &snapshot.Threads{PID: 1, ClockTicks: 100, Tasks: []snapshot.TaskCounters{{TID: 7, CPUTicks: 1 << 63}}},
		status: statusStateOf(map[string]string{"Uptime": "18446744073709551615", "Questions": "x"})}
	f.Fuzz(func(t *testing.T, raw []byte) {
		decodeFrame(raw, chainState{})
		decodeFrame(raw, prev)
		frameChain(raw, prev)
	})
}
