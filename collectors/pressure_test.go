package collectors

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// pressureFiles are /proc/pressure as Linux 6 writes it.
var pressureFiles = map[string]string{
	"pressure/cpu": "some avg10=73.07 avg60=39.99 avg300=47.59 total=1252405821\n" +
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	"pressure/io": "some avg10=28.19 avg60=12.07 avg300=8.44 total=227108555\n" +
		"full avg10=0.00 avg60=0.04 avg300=0.06 total=4079758\n",
	// A kernel before 5.13's memory file is the same; old ones lack "full".
	"pressure/memory": "some avg10=0.00 avg60=0.00 avg300=0.00 total=17\n",
}

func TestPressureReadsTheKernelsStallClocks(t *testing.T) {
	fp := newFakeProc(t)
	fp.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 /run/mysqld/mysqld.sock\n")
	fp.process(30, "mariadbd", 7001)
	fp.task(30, 0, "mariadbd", 100, 0)
	c := newPressure(newServerProc(fp.root, "/run/mysqld/mysqld.sock"))
	collect := func() *snapshot.Snapshot {
		s := &snapshot.Snapshot{Time: time.Now(), Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
		if err := c.Collect(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// No /proc/pressure: the kernel has none, said once and not asked again.
	s := collect()
	if u := s.Collectors[snapshot.CollectorPressure].Unavailable; s.Pressure != nil || !strings.Contains(u, "Linux 4.20") {
		t.Errorf("without /proc/pressure: %+v, %q", s.Pressure, u)
	}
	for name, text := range pressureFiles {
		fp.write(name, text)
	}
	if s := collect(); s.Pressure != nil {
		t.Errorf("asked the kernel again: %+v", s.Pressure)
	}
	c = newPressure(newServerProc(fp.root, "/run/mysqld/mysqld.sock"))
	want := snapshot.Pressure{CPU: snapshot.Stall{SomeUS: 1252405821}, IO: snapshot.Stall{SomeUS: 227108555, FullUS: 4079758},
		Memory: snapshot.Stall{SomeUS: 17}}
	if s := collect(); s.Pressure == nil || *s.Pressure != want {
		t.Errorf("got %+v, want %+v", s.Pressure, want)
	}
	// A server on another machine: this one's stalls are not its.
	remote := newPressure(newServerProc(fp.root, "192.0.2.7:3306"))
	r := &snapshot.Snapshot{Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
	if err := remote.Collect(context.Background(), r); err != nil || r.Pressure != nil ||
		!strings.Contains(r.Collectors[snapshot.CollectorPressure].Unavailable, "not the server's") {
		t.Errorf("remote server: %v %+v %+v", err, r.Pressure, r.Collectors)
	}
}
