package parse

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// parseLog reads the LOG section: the LSN positions of every version (MySQL
// 8.0.30+ adds the "Log buffer ..." and file id lines, Percona XtraDB adds
// checkpoint age lines, pre-5.5 prints "high low" LSN pairs).
func parseLog(l *snapshot.InnoDBLog, body string) {
	l.Present = true
	lsnSeen, ckptSeen := false, false
	for line := range lines(body) {
		name, value, ok := logPosition(line)
		if !ok {
			parseLogCounters(l, line)
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

func parseLogCounters(l *snapshot.InnoDBLog, line string) {
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
