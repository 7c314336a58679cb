package parse

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// maxSemaphoreWaits caps InnoDBSemaphores.WaitList; Waits counts every entry.
const maxSemaphoreWaits = 64

// parseSemaphoreWait reads the "--Thread" line itself.
func parseSemaphoreWait(line string) snapshot.InnoDBSemaphoreWait {
	var w snapshot.InnoDBSemaphoreWait
	rest := strings.TrimPrefix(line, "--Thread ")
	w.Thread, rest, _ = strings.Cut(rest, " has waited at ")
	w.File, rest, _ = strings.Cut(rest, " line ")
	w.File = fileLine(w.File)
	if n, ok := leadingInt(rest); ok {
		w.Line = int(n)
	}
	if v, ok := floatBefore(rest, " seconds the semaphore"); ok {
		w.Seconds = v
	}
	return w
}

// detail reads one line after the "--Thread" line.
func waitDetail(w *snapshot.InnoDBSemaphoreWait, line string) {
	switch {
	case strings.HasPrefix(line, "Mutex at "):
		w.Kind = "Mutex"
		w.Latch = latchName(line)
	case strings.Contains(line, " on RW-latch at "):
		w.Kind, _, _ = strings.Cut(line, " on RW-latch at ")
		w.Latch = latchName(line)
	case strings.HasPrefix(line, "a writer (thread id "):
		rest := strings.TrimPrefix(line, "a writer (thread id ")
		w.Holder, rest, _ = strings.Cut(rest, ")")
		if _, mode, ok := strings.Cut(rest, "in mode "); ok {
			w.HolderMode = strings.TrimSpace(mode)
		}
	case strings.HasPrefix(line, "Last time write locked in file "):
		w.LastWriter = fileLine(strings.TrimPrefix(line, "Last time write locked in file "))
	}
}

// latchName finds the latch in "Mutex at 0x… '&kernel_mutex', lock var 1",
// "… created in file hash0hash.cc line 116" (5.6+ rw-latches), "… created
// file buf0buf.cc line 1234, lock var 1" or "Mutex at 0x…, Mutex LOCK_SYS
// created lock0lock.cc:429, lock var 1" (5.7+ mutexes).
func latchName(line string) string {
	if _, rest, ok := strings.Cut(line, "'"); ok {
		if name, _, ok := strings.Cut(rest, "'"); ok {
			return name
		}
	}
	for _, key := range []string{" created in file ", " created file "} {
		if _, rest, ok := strings.Cut(line, key); ok {
			return fileLine(rest)
		}
	}
	if i := strings.Index(line, ", Mutex "); i >= 0 {
		name, _, _ := strings.Cut(line[i+2:], ", lock var")
		return name
	}
	return ""
}

// fileLine shortens "storage/innobase/ha/hash0hash.cc line 64, lock var 1"
// to "hash0hash.cc line 64": build paths say nothing and differ per host.
func fileLine(s string) string {
	s, _, _ = strings.Cut(s, ",")
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
