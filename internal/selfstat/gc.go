package selfstat

import (
	"os"
	"runtime/debug"
)

// monitorGCPercent is the garbage collector's target for a monitor running
// beside a database in trouble: the heap may grow by half its live size
// between collections, not by all of it. Recording at 5,000 connections it
// measured 44-48 MB instead of 55-59 MB, at 1.0-1.1 % of a core either way
// (bench/RESULTS.md). Only the commands that sample a server (live, record,
// serve) set it: replay, report and import run on their own and trade no
// memory for their time.
const monitorGCPercent = 50

// TuneGC sets monitorGCPercent unless GOGC in the environment says otherwise.
func TuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(monitorGCPercent)
	}
}
