package importers

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// /proc/meminfo, as pt-stalk's -meminfo keeps it under TS stamps: "Name:
// value kB" lines.

// meminfoLine reads one /proc/meminfo line into h; false when the line is
// not one.
func meminfoLine(line string, h *snapshot.Host) bool {
	name, value, ok := strings.Cut(line, ":")
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return false
	}
	f := strings.Fields(value)
	if len(f) == 0 || len(f) > 2 || len(f) == 2 && f[1] != "kB" {
		return false
	}
	v := atou(f[0])
	if len(f) == 2 {
		v <<= 10
	}
	switch name {
	case "MemTotal":
		h.MemTotal = v
	case "MemFree":
		h.MemFree = v
	case "MemAvailable":
		h.MemAvailable = v
	case "Buffers":
		h.MemBuffers = v
	case "Cached":
		h.MemCached = v
	case "SwapTotal":
		h.SwapTotal = v
	case "SwapFree":
		h.SwapFree = v
	}
	return true
}

// applyMeminfo reads one /proc/meminfo copy into h.
func applyMeminfo(h *snapshot.Host, lines []string) {
	for _, l := range lines {
		meminfoLine(l, h)
	}
}
