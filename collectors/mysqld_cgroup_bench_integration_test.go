package collectors

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// BenchmarkMysqldCPUSources prices one read of each source of mysqld's
// process-wide figures with 5,000 connection threads (the per-connection cost work): the
// /proc files walk every thread, the cgroup files do not. Run as root:
//
//	go test ./collectors/ -run '^$' -bench MysqldCPUSources -benchtime 2000x
func BenchmarkMysqldCPUSources(b *testing.B) {
	const conns = 5000
	srv := testdb.Start(b, "--max-connections=6000", "--open-files-limit=20000", "--thread-cache-size=0")
	db, err := sql.Open("mysql", srv.DSN(""))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	holdConns(b, db, conns)
	if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", srv.PID)); err == nil {
		for line := range procLines(st) {
			if bytes.HasPrefix(line, []byte("Threads:")) {
				b.Logf("mysqld %s", line)
			}
		}
	}

	read := func(path string) func(b *testing.B) {
		return func(b *testing.B) {
			var rd procReader
			rd.path = append([]byte(path), 0)
			for b.Loop() {
				if _, err := rd.read(); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	tick := func(p *serverProc) func(b *testing.B) {
		return func(b *testing.B) {
			at := time.Now()
			p.stat(at, nil) // finds the pid, anchors
			for b.Loop() {
				at = at.Add(time.Second)
				if _, _, err := p.stat(at, nil); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	pid := filepath.Join("/proc", itoa(srv.PID))
	b.Run("proc_stat", read(pid+"/stat"))
	b.Run("proc_io", read(pid+"/io"))
	b.Run("main_thread_stat", read(pid+"/task/"+itoa(srv.PID)+"/stat"))
	procOnly := newServerProc("/proc", srv.Socket)
	procOnly.cg.checkAt = time.Now().Add(time.Hour) // never checked: /proc only
	procOnly.cg.pid = -1
	b.Run("tick_proc", tick(procOnly))

	// Alone in a v2 and a v1 cpuacct cgroup, as under systemd on a hybrid
	// machine: the tick takes v2.
	v2 := ownCgroupFor(b, cgroupMountFor(b, ""), "", srv.PID)
	v1 := ownCgroupFor(b, cgroupMountFor(b, "cpuacct"), "cpuacct", srv.PID)
	b.Run("cgroup_v2_cpu.stat", read(v2+"/cpu.stat"))
	b.Run("cgroup_v1_cpuacct.stat", read(v1+"/cpuacct.stat"))
	b.Run("cgroup.procs", read(v2+"/cgroup.procs"))
	b.Run("check", func(b *testing.B) {
		var c cgroupCPU
		for b.Loop() {
			if c.check("/proc", srv.PID, time.Now()); c.file != v2+"/cpu.stat" {
				_, _, why := ownCgroupFile("/proc", srv.PID)
				b.Fatalf("check: %q %s", c.file, why)
			}
		}
	})
	b.Run("tick_cgroup", tick(newServerProc("/proc", srv.Socket)))
}

// holdConns opens n idle connections, held until the benchmark ends.
func holdConns(b *testing.B, db *sql.DB, n int) {
	ctx := context.Background()
	var mu sync.Mutex
	var held []*sql.Conn
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				done := len(held) >= n
				mu.Unlock()
				if done {
					return
				}
				c, err := db.Conn(ctx)
				if err == nil {
					err = c.PingContext(ctx)
				}
				if err != nil {
					select {
					case errs <- err:
					default:
					}
					return
				}
				mu.Lock()
				held = append(held, c)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		b.Fatalf("after %d connections: %v", len(held), err)
	default:
	}
	b.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
}
