// Command latency prints the per-tick collection latency stored in a
// mytop-go recording: p50, p99 and max of the database part of each tick
// (the collectors run one after another on one connection) and of each
// collector, as key=value pairs that bench/compare.sh reads. "threads-proc"
// is the per-thread /proc reads' own time, most of it spent beside the SQL
// reads (so only the part after them is in the threads collector's latency).
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: latency RECORDING")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "latency:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	r, err := recording.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	perCollector := map[string][]time.Duration{}
	var ticks []time.Duration
	// The first frame also pays for connecting and runs every collector at
	// once; it is a start-up cost, not a per-tick one.
	for i := 1; i < r.Len(); i++ {
		s, err := r.Snapshot(i)
		if err != nil {
			return err
		}
		ticks = append(ticks, dbLatency(s))
		for name, st := range s.Collectors {
			if st.Latency > 0 {
				perCollector[string(name)] = append(perCollector[string(name)], st.Latency)
			}
		}
		// The threads collector's /proc reads, most of them made beside
		// the SQL reads: their own time, not all of it in the tick.
		if s.Threads != nil && s.Threads.ReadTime > 0 {
			perCollector["threads-proc"] = append(perCollector["threads-proc"], s.Threads.ReadTime)
		}
	}
	if len(ticks) == 0 {
		return fmt.Errorf("%s: fewer than two frames", path)
	}
	fmt.Println(summary("tick", ticks))
	names := make([]string, 0, len(perCollector))
	for n := range perCollector {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Println(summary(n, perCollector[n]))
	}
	return nil
}

// dbLatency is the time the database collectors took in one tick; the host
// collector runs beside them and is left out.
func dbLatency(s *snapshot.Snapshot) time.Duration {
	var sum time.Duration
	for name, st := range s.Collectors {
		if name != "host" {
			sum += st.Latency
		}
	}
	return sum
}

func summary(name string, ds []time.Duration) string {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/1e6) }
	return strings.Join([]string{
		name, "n=" + fmt.Sprint(len(ds)),
		"p50=" + ms(quantile(ds, 0.50)), "p99=" + ms(quantile(ds, 0.99)), "max=" + ms(ds[len(ds)-1]),
	}, " ")
}

// quantile is the nearest-rank quantile of sorted ds.
func quantile(ds []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(ds))+0.999999) - 1
	return ds[max(0, min(i, len(ds)-1))]
}
