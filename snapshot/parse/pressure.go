package parse

import (
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// PressureLine reads one line of a /proc/pressure file ("some avg10=0.00
// avg60=0.00 avg300=0.00 total=1234") into stall; false when it is not one.
// Only the cumulative total is kept: the kernel's averages are its own
// windows, and the monitor measures its own interval.
func PressureLine(line string, stall *snapshot.Stall) bool {
	kind, rest, ok := strings.Cut(strings.TrimSpace(line), " ")
	if !ok || kind != "some" && kind != "full" {
		return false
	}
	i := strings.LastIndex(rest, "total=")
	if i < 0 {
		return false
	}
	total, err := strconv.ParseUint(strings.TrimSpace(rest[i+len("total="):]), 10, 64)
	if err != nil {
		return false
	}
	if kind == "some" {
		stall.SomeUS = total
	} else {
		stall.FullUS = total
	}
	return true
}

// PressureOf is the stall of resource ("cpu", "io", "memory") in p; nil
// for any other name.
func PressureOf(p *snapshot.Pressure, resource string) *snapshot.Stall {
	switch resource {
	case "cpu":
		return &p.CPU
	case "io":
		return &p.IO
	case "memory":
		return &p.Memory
	}
	return nil
}
