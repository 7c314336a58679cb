package snapshot

import (
	"strconv"
	"strings"
)

// FillCapacity sets the redo capacity from server variables when the text did
// not print it: innodb_redo_log_capacity (MySQL 8.0.30+), else
// innodb_log_file_size × innodb_log_files_in_group (one file when the group
// variable is gone, as in MariaDB 10.5+). It then sets CheckpointAgePercent.
func (s *InnoDBStatus) FillCapacity(vars map[string]string) {
	if s == nil {
		return
	}
	s.FillCapacityBytes(redoCapacity(vars))
}

// FillCapacityBytes is FillCapacity given the capacity the variables give
// (0 when unknown): a recording keeps that number beside the raw text and
// rebuilds the parsed status from both.
func (s *InnoDBStatus) FillCapacityBytes(capacity int64) {
	if s == nil {
		return
	}
	l := &s.Log
	if l.CapacityBytes <= 0 {
		l.CapacityBytes = capacity
	}
	if l.CapacityBytes > 0 && l.Present {
		l.CheckpointAgePercent = float64(l.CheckpointAge) / float64(l.CapacityBytes) * 100
	}
}

func redoCapacity(vars map[string]string) int64 {
	if v := varInt(vars, "innodb_redo_log_capacity"); v > 0 {
		return v
	}
	size := varInt(vars, "innodb_log_file_size")
	files := varInt(vars, "innodb_log_files_in_group")
	if files <= 0 {
		files = 1
	}
	if size <= 0 || size > (1<<62)/files {
		return 0
	}
	return size * files
}

func varInt(vars map[string]string, name string) int64 {
	v, err := strconv.ParseInt(strings.TrimSpace(vars[name]), 10, 64)
	if err != nil {
		return 0
	}
	return v
}
