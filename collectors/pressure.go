package collectors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// pressure reads the kernel's pressure stall information (/proc/pressure/cpu,
// io and memory) into Snapshot.Pressure: three small reads a tick. It runs
// only when mysqld is confirmed to run on this machine (serverProc), for the
// same reason as the host figures: another machine's stalls would mislead.
// A kernel without it (before 4.20, or booted with psi=0) makes the part
// unavailable, saying so, once.
type pressure struct {
	proc *serverProc
	buf  []byte
	// absent is why the kernel gives none, once found.
	absent string
}

// pressureResources are the files of /proc/pressure, in Pressure's order.
var pressureResources = []string{"cpu", "io", "memory"}

func newPressure(proc *serverProc) *pressure { return &pressure{proc: proc} }

// Name implements Collector.
func (c *pressure) Name() snapshot.CollectorName { return snapshot.CollectorPressure }

// Collect implements Collector.
func (c *pressure) Collect(_ context.Context, s *snapshot.Snapshot) error {
	if c.absent != "" {
		setUnavailable(s, snapshot.CollectorPressure, c.absent)
		return nil
	}
	if _, _, err := c.proc.stat(s.Time, s); err != nil {
		setUnavailable(s, snapshot.CollectorPressure, firstLine(err.Error())+": this machine's stalls are not the server's")
		return nil
	}
	p, err := c.read(filepath.Join(c.proc.root, "pressure"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.absent = "the kernel reports no pressure stalls (/proc/pressure: Linux 4.20 or later, not booted with psi=0)"
		setUnavailable(s, snapshot.CollectorPressure, c.absent)
		return nil
	case err != nil:
		return err
	}
	s.Pressure = p
	return nil
}

// read parses the three files under dir. The memory file may lack its
// "full" line on old kernels, and cpu's "full" is always 0 system-wide
// before 5.13: both read as 0.
func (c *pressure) read(dir string) (*snapshot.Pressure, error) {
	p := &snapshot.Pressure{}
	for _, name := range pressureResources {
		b, err := readInto(filepath.Join(dir, name), c.buf[:0])
		if err != nil {
			return nil, err
		}
		c.buf = b
		stall := parse.PressureOf(p, name)
		n := 0
		for line := range strings.Lines(string(b)) {
			if parse.PressureLine(line, stall) {
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: no stall line in %q", filepath.Join(dir, name), firstLine(string(b)))
		}
	}
	return p, nil
}
