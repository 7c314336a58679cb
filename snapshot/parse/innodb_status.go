package parse

import (
	"errors"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// section is one titled block of the monitor output.
type section struct {
	title string
	body  string
}

// Section titles the parser reads; any other title is accepted and skipped.
const (
	secBackground  = "BACKGROUND THREAD"
	secSemaphores  = "SEMAPHORES"
	secRWLatchInfo = "RW-LATCH INFO" // debug builds print it inside SEMAPHORES
	secDeadlock    = "LATEST DETECTED DEADLOCK"
	secFKError     = "LATEST FOREIGN KEY ERROR"
	secTxn         = "TRANSACTIONS"
	secFileIO      = "FILE I/O"
	secIbufAHI     = "INSERT BUFFER AND ADAPTIVE HASH INDEX"
	secLog         = "LOG"
	secBufferPool  = "BUFFER POOL AND MEMORY"
	secRows        = "ROW OPERATIONS"
)

const (
	monitorHeader = "INNODB MONITOR OUTPUT"
	monitorEnd    = "END OF INNODB MONITOR OUTPUT"
)

var errNotInnoDBStatus = errors.New("innodb status: text has neither the INNODB MONITOR OUTPUT header nor any known section")

// ParseInnoDBStatus parses SHOW ENGINE INNODB STATUS output of MySQL 5.0–9.x,
// MariaDB and Percona Server. It accepts the bare text, the mysql client's \G
// row, or the tabular Type/Name/Status row (raw or with \n escaped). Output cut
// short by the server's 1 MB cap parses as far as it goes, with Truncated set;
// an error means the text is not InnoDB monitor output at all.
func ParseInnoDBStatus(text string) (*snapshot.InnoDBStatus, error) {
	s := &snapshot.InnoDBStatus{Raw: text}
	body := monitorBody(unescapeTabular(text))
	preamble, secs, ended := splitSections(body)
	if !strings.Contains(preamble, monitorHeader) && !anyKnownSection(secs) {
		return nil, errNotInnoDBStatus
	}
	s.Truncated = !ended
	parsePreamble(s, preamble)
	for _, sec := range secs {
		parseSection(s, sec)
	}
	return s, nil
}

func parseSection(s *snapshot.InnoDBStatus, sec section) {
	switch sec.title {
	case secSemaphores, secRWLatchInfo:
		parseSemaphores(&s.Semaphores, sec.body)
	case secDeadlock:
		parseDeadlockSection(s, sec.body)
	case secTxn:
		parseTransactions(&s.Transactions, sec.body)
	case secFileIO:
		parseFileIO(&s.FileIO, sec.body)
	case secLog:
		parseLog(&s.Log, sec.body)
	case secBufferPool:
		parseBufferPool(&s.BufferPool, sec.body)
	case secRows:
		parseRows(&s.Rows, sec.body)
	}
}

func anyKnownSection(secs []section) bool {
	for _, sec := range secs {
		switch sec.title {
		case secBackground, secSemaphores, secDeadlock, secFKError, secTxn, secFileIO,
			secIbufAHI, secLog, secBufferPool, secRows:
			return true
		}
	}
	return false
}

// parsePreamble reads the header timestamp and the averaging window.
func parsePreamble(s *snapshot.InnoDBStatus, pre string) {
	for line := range lines(pre) {
		if strings.Contains(line, monitorHeader) {
			if t, ok := parseMonitorTime(line); ok {
				s.Time = t
			}
		} else if v, ok := intAfter(line, "Per second averages calculated from the last "); ok {
			s.AveragesSeconds = int(v)
		}
	}
}

// monitorBody drops whatever the client printed around the monitor text (the
// \G row header, the Type/Name columns) by starting at the "=====" line above
// the header. Text without a header is returned whole.
func monitorBody(text string) string {
	from := 0
	for {
		i := strings.Index(text[from:], monitorHeader)
		if i < 0 {
			return text
		}
		i += from
		lineStart := strings.LastIndexByte(text[:i], '\n') + 1
		if !strings.HasPrefix(text[lineStart:], monitorEnd) {
			return text[previousRuleLine(text, lineStart):]
		}
		from = i + len(monitorHeader)
	}
}

// previousRuleLine returns where the "=====" line just above lineStart begins,
// or lineStart when there is none.
func previousRuleLine(text string, lineStart int) int {
	if lineStart == 0 {
		return 0
	}
	prev := strings.LastIndexByte(text[:lineStart-1], '\n') + 1
	if isRule(strings.TrimRight(text[prev:lineStart-1], "\r"), '=') {
		return prev
	}
	return lineStart
}

// unescapeTabular undoes the mysql client's batch-mode escaping (\n, \t, \\)
// when the whole status arrived as one escaped line.
func unescapeTabular(text string) string {
	head := text[:min(len(text), 4096)]
	if !strings.Contains(head, `\n====`) || strings.Contains(head, "\n====") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\\' || i+1 == len(text) {
			b.WriteByte(c)
			continue
		}
		i++
		switch text[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(text[i])
		}
	}
	return b.String()
}

// splitSections cuts the monitor text into titled sections. A title is a line
// of capitals between two dash lines (lengths may differ: old Percona builds
// print short rules). ended reports whether the END OF INNODB MONITOR OUTPUT
// marker was reached, i.e. the output was not truncated.
func splitSections(text string) (preamble string, secs []section, ended bool) {
	var prev2, prev1 string // the two lines before the current one
	var start2, start1 int  // their offsets in text
	bodyStart, title := -1, ""
	closeAt := func(end int) {
		if bodyStart < 0 {
			preamble = text[:end]
		} else {
			// Adjacent titles can share a dash line: the body is then empty.
			secs = append(secs, section{title: title, body: text[bodyStart:max(end, bodyStart)]})
		}
	}
	for pos := 0; pos < len(text); {
		lineStart := pos
		line := text[pos:]
		if n := strings.IndexByte(line, '\n'); n >= 0 {
			line = line[:n]
		}
		pos += len(line) + 1
		line = strings.TrimSuffix(line, "\r")
		switch {
		case isRule(prev2, '-') && isTitle(prev1) && isRule(line, '-'):
			closeAt(start2)
			title, bodyStart = strings.TrimSpace(prev1), min(pos, len(text))
		case strings.TrimSpace(line) == monitorEnd:
			end := lineStart
			if isRule(prev1, '-') {
				end = start1
			}
			closeAt(end)
			return preamble, secs, true
		}
		prev2, start2 = prev1, start1
		prev1, start1 = line, lineStart
	}
	closeAt(len(text))
	return preamble, secs, false
}

// isRule reports whether line is at least three c characters and nothing else.
func isRule(line string, c byte) bool {
	line = strings.TrimRight(line, " ")
	if len(line) < 3 {
		return false
	}
	for i := 0; i < len(line); i++ {
		if line[i] != c {
			return false
		}
	}
	return true
}

// isTitle reports whether line looks like a section title: capitals, spaces,
// '/' and '-', starting with a letter.
func isTitle(line string) bool {
	line = strings.TrimRight(line, " ")
	if line == "" || line[0] < 'A' || line[0] > 'Z' {
		return false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if (c < 'A' || c > 'Z') && c != ' ' && c != '/' && c != '-' {
			return false
		}
	}
	return true
}

// parseDeadlockSection keeps the LATEST DETECTED DEADLOCK text and its timestamp.
func parseDeadlockSection(s *snapshot.InnoDBStatus, body string) {
	const maxDeadlockText = 64 << 10
	text := strings.Trim(body, "\r\n")
	if len(text) > maxDeadlockText {
		text = text[:maxDeadlockText]
	}
	s.LatestDeadlock = text
	for line := range lines(text) {
		if t, ok := parseMonitorTime(line); ok {
			s.LatestDeadlockTime = t
		}
		break
	}
}
