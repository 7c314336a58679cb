package snapshot

import (
	"strconv"
	"strings"
)

// parse reads the LOG section: the LSN positions of every version (MySQL
// 8.0.30+ adds the "Log buffer ..." and file id lines, Percona XtraDB adds
// checkpoint age lines, pre-5.5 prints "high low" LSN pairs).
func (l *InnoDBLog) parse(body string) {
	l.Present = true
	lsnSeen, ckptSeen := false, false
	for line := range lines(body) {
		name, value, ok := logPosition(line)
		if !ok {
			l.parseCounters(line)
			continue
		}
		switch name {
		case "Log sequence number":
			l.SequenceNumber, lsnSeen = value, true
		case "Log buffer assigned up to":
			l.BufferAssignedUpTo = value
		case "Log written up to":
			l.WrittenUpTo = value
		case "Log flushed up to":
			l.FlushedUpTo = value
		case "Pages flushed up to":
			l.PagesFlushedUpTo = value
		case "Last checkpoint at":
			l.LastCheckpoint, ckptSeen = value, true
		case "Max checkpoint age":
			l.MaxCheckpointAge = value
		}
	}
	if lsnSeen && ckptSeen && l.SequenceNumber >= l.LastCheckpoint {
		l.CheckpointAge = l.SequenceNumber - l.LastCheckpoint
	}
}

// logPosition splits "Name    <lsn>" lines; the name is everything before
// the first digit.
func logPosition(line string) (name string, value int64, ok bool) {
	i := strings.IndexAny(line, "0123456789")
	if i <= 0 {
		return "", 0, false
	}
	value, ok = parseLSN(line[i:])
	return strings.TrimRight(line[:i], " \t"), value, ok
}

func (l *InnoDBLog) parseCounters(line string) {
	switch {
	case strings.Contains(line, " pending chkp writes"):
		if v, ok := leadingInt(line); ok {
			l.PendingLogFlushes = v
		}
		setInt(&l.PendingCheckpointWrites, line, ", ")
	case strings.Contains(line, " log i/o's done"):
		if v, ok := leadingInt(line); ok {
			l.LogIOs = v
		}
		setFloatBefore(&l.LogIOsPerSec, line, " log i/o's/second")
	}
}

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
