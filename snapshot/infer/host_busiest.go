package infer

import (
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// BusiestTop is how many other processes Host.Busiest keeps, and
// BusiestMinCPUs the least CPU (CPU seconds a second) a process must have
// used to be named: a daemon's 0.01 says nothing about who keeps the CPUs
// busy. Live collection and imported captures (top) rank by the same rule.
const (
	BusiestTop     = 5
	BusiestMinCPUs = 0.05
)

// RankBusiest keeps the processes that used at least BusiestMinCPUs, the
// busiest BusiestTop of them, busiest first (ties by pid). It sorts used in
// place.
func RankBusiest(used []snapshot.ProcessUse) []snapshot.ProcessUse {
	used = slices.DeleteFunc(used, func(p snapshot.ProcessUse) bool { return p.CPUs < BusiestMinCPUs })
	slices.SortFunc(used, func(a, b snapshot.ProcessUse) int {
		switch {
		case a.CPUs > b.CPUs:
			return -1
		case a.CPUs < b.CPUs:
			return 1
		}
		return a.PID - b.PID
	})
	if len(used) > BusiestTop {
		used = used[:BusiestTop]
	}
	return used
}

// IsServerProcess reports a process name of a MySQL-family server (mysqld,
// mariadbd and their wrappers' names).
func IsServerProcess(name string) bool {
	return strings.Contains(name, "mysqld") || strings.Contains(name, "mariadbd")
}
