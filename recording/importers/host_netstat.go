package importers

import (
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// `netstat -s` (net-tools) as pt-stalk's -netstat_s keeps it: sections
// ("Tcp:", "IpExt:") of indented lines, the Tcp ones "N what" and the
// extended ones "Name: N". The wording of a few Tcp lines changed over the
// years ("segments send out" became "segments sent out", "retransmited"
// "retransmitted"); both are read.

// netstatSection says which section the lines that follow belong to.
type netstatSection struct{ name string }

// line reads one line of netstat -s into t; false when the line is no part
// of it. Lines of sections other than Tcp and IpExt are taken and ignored.
func (s *netstatSection) line(line string, t *snapshot.TCPCounters) bool {
	trim := strings.TrimSpace(line)
	if trim == "" {
		return true
	}
	if line[0] != ' ' && line[0] != '\t' {
		name, ok := strings.CutSuffix(trim, ":")
		if !ok || strings.ContainsAny(name, " \t") {
			return false
		}
		s.name = name
		return true
	}
	if s.name == "" {
		return false
	}
	switch s.name {
	case "Tcp":
		tcpLine(trim, t)
	case "IpExt":
		name, value, ok := strings.Cut(trim, ": ")
		if !ok {
			return true
		}
		switch name {
		case "InOctets":
			t.InOctets = atou(value)
		case "OutOctets":
			t.OutOctets = atou(value)
		}
	}
	return true
}

// tcpLines are the Tcp lines read, by their words after the number.
var tcpLines = map[string]func(*snapshot.TCPCounters) *uint64{
	"active connection openings":  func(t *snapshot.TCPCounters) *uint64 { return &t.ActiveOpens },
	"active connections openings": func(t *snapshot.TCPCounters) *uint64 { return &t.ActiveOpens },
	"passive connection openings": func(t *snapshot.TCPCounters) *uint64 { return &t.PassiveOpens },
	"failed connection attempts":  func(t *snapshot.TCPCounters) *uint64 { return &t.AttemptFails },
	"connection resets received":  func(t *snapshot.TCPCounters) *uint64 { return &t.EstabResets },
	"connections established":     func(t *snapshot.TCPCounters) *uint64 { return &t.CurrEstab },
	"segments received":           func(t *snapshot.TCPCounters) *uint64 { return &t.InSegs },
	"segments sent out":           func(t *snapshot.TCPCounters) *uint64 { return &t.OutSegs },
	"segments send out":           func(t *snapshot.TCPCounters) *uint64 { return &t.OutSegs },
	"segments retransmitted":      func(t *snapshot.TCPCounters) *uint64 { return &t.RetransSegs },
	"segments retransmited":       func(t *snapshot.TCPCounters) *uint64 { return &t.RetransSegs },
	"bad segments received":       func(t *snapshot.TCPCounters) *uint64 { return &t.InErrs },
	"bad segments received.":      func(t *snapshot.TCPCounters) *uint64 { return &t.InErrs },
	"resets sent":                 func(t *snapshot.TCPCounters) *uint64 { return &t.OutRsts },
}

func tcpLine(trim string, t *snapshot.TCPCounters) {
	num, words, ok := strings.Cut(trim, " ")
	if !ok {
		return
	}
	v, err := strconv.ParseUint(num, 10, 64)
	if err != nil {
		return
	}
	if field, ok := tcpLines[words]; ok {
		*field(t) = v
	}
}

// parseNetstatS reads one netstat -s output; false when it holds no Tcp
// section.
func parseNetstatS(lines []string) (*snapshot.TCPCounters, bool) {
	var s netstatSection
	t := &snapshot.TCPCounters{}
	sawTCP := false
	for _, l := range lines {
		s.line(l, t)
		sawTCP = sawTCP || s.name == "Tcp"
	}
	return t, sawTCP
}
