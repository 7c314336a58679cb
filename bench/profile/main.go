// Command profile runs the same pipeline as `mytop-go record` (live
// collectors, rates and analyzers, the recording writer) against a server for
// a while and writes CPU and heap profiles, so bench/compare.sh -m profile can
// say where the monitor's CPU and memory go at N connections.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/analyzers"
	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

func main() {
	socket := flag.String("S", "", "server socket")
	user := flag.String("u", "root", "user")
	out := flag.String("o", "", "recording to create")
	prof := flag.String("prof", "", "prefix of the profiles: PREFIX.cpu.pprof, PREFIX.heap.pprof")
	every := flag.Duration("mem-every", 30*time.Second, "how often to print heap figures (and rewrite the heap profile)")
	flag.Parse()
	if *socket == "" || *out == "" || *prof == "" {
		fmt.Fprintln(os.Stderr, "usage: profile -S SOCKET -u USER -o FILE -prof PREFIX (stops on SIGINT/SIGTERM)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *socket, *user, *out, *prof, *every); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, socket, user, out, prof string, every time.Duration) error {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = user, "unix", socket
	live, err := collectors.NewLive(collectors.LiveOptions{Config: cfg, Host: &collectors.Host{}})
	if err != nil {
		return err
	}
	defer live.Close()
	if err := live.Connect(ctx); err != nil {
		return err
	}
	w, err := recording.Create(out, recording.WriterOptions{Interval: time.Second})
	if err != nil {
		return err
	}
	defer w.Close()
	cpu, err := os.Create(prof + ".cpu.pprof")
	if err != nil {
		return err
	}
	defer cpu.Close()
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return err
	}
	b := pipeline.NewBuilder("LIVE", analyzers.NewEngine(analyzers.DefaultConfig()))
	next := time.Now().Add(every)
	err = pipeline.Run(ctx, live, b, func(f *snapshot.Frame) error {
		if err := w.Write(f); err != nil {
			return err
		}
		if time.Now().After(next) {
			next = next.Add(every)
			printMem(f.Seq + 1)
			// While running, so the profile shows what the window holds.
			return writeHeap(prof + ".heap.pprof")
		}
		return nil
	})
	pprof.StopCPUProfile()
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// printMem prints the live heap after a collection, and what the runtime holds.
func printMem(frames int) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Printf("frames=%d heap_live_MB=%.1f heap_sys_MB=%.1f total_alloc_MB=%.0f gc=%d\n", frames,
		float64(m.HeapAlloc)/1e6, float64(m.HeapSys)/1e6, float64(m.TotalAlloc)/1e6, m.NumGC)
}

func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.WriteHeapProfile(f)
}
