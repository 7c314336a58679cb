package parse

import (
	"iter"
	"strconv"
	"strings"
	"time"
)

// Small scanners for the InnoDB monitor's fixed phrases. They avoid regexps on
// purpose: the text is parsed every second and can be a megabyte long.

// lines yields each line of s without its line break.
func lines(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for len(s) > 0 {
			line := s
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				line, s = s[:i], s[i+1:]
			} else {
				s = ""
			}
			if !yield(strings.TrimSuffix(line, "\r")) {
				return
			}
		}
	}
}

// leadingInt parses the unsigned integer at the start of s, after spaces.
func leadingInt(s string) (int64, bool) {
	s = strings.TrimLeft(s, " \t")
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	v, err := strconv.ParseInt(s[:n], 10, 64)
	return v, err == nil
}

// leadingFloat parses the unsigned decimal number at the start of s, after spaces.
func leadingFloat(s string) (float64, bool) {
	s = strings.TrimLeft(s, " \t")
	n := 0
	for n < len(s) && (isDigit(s[n]) || s[n] == '.') {
		n++
	}
	v, err := strconv.ParseFloat(s[:n], 64)
	return v, err == nil
}

// intAfter returns the integer that follows key in s.
func intAfter(s, key string) (int64, bool) {
	i := strings.Index(s, key)
	if i < 0 {
		return 0, false
	}
	return leadingInt(s[i+len(key):])
}

// floatAfter returns the decimal number that follows key in s.
func floatAfter(s, key string) (float64, bool) {
	i := strings.Index(s, key)
	if i < 0 {
		return 0, false
	}
	return leadingFloat(s[i+len(key):])
}

// numberBefore returns the text of the number that ends right where unit
// starts in s ("32.97" for unit " reads/s" in "32.97 reads/s").
func numberBefore(s, unit string) string {
	end := strings.Index(s, unit)
	if end < 0 {
		return ""
	}
	start := end
	for start > 0 && (isDigit(s[start-1]) || s[start-1] == '.') {
		start--
	}
	return s[start:end]
}

func floatBefore(s, unit string) (float64, bool) {
	v, err := strconv.ParseFloat(numberBefore(s, unit), 64)
	return v, err == nil
}

func intBefore(s, unit string) (int64, bool) {
	v, err := strconv.ParseInt(numberBefore(s, unit), 10, 64)
	return v, err == nil
}

// setInt stores the integer after key into dst when line carries one.
func setInt(dst *int64, line, key string) {
	if v, ok := intAfter(line, key); ok {
		*dst = v
	}
}

func setFloatBefore(dst *float64, line, unit string) {
	if v, ok := floatBefore(line, unit); ok {
		*dst = v
	}
}

// parseLSN reads a log sequence number: one decimal, or the pre-5.5 "high low"
// pair of 32-bit words.
func parseLSN(s string) (int64, bool) {
	f := strings.Fields(s)
	switch len(f) {
	case 1:
		v, err := strconv.ParseInt(f[0], 10, 64)
		return v, err == nil
	case 2:
		hi, err1 := strconv.ParseInt(f[0], 10, 32)
		lo, err2 := strconv.ParseUint(f[1], 10, 32)
		return hi<<32 | int64(lo), err1 == nil && err2 == nil && hi >= 0
	}
	return 0, false
}

// parseTrxID reads a transaction id: decimal (5.6+), hexadecimal (5.1/5.5
// print "B0055592"), or the 5.0 "high low" pair. A hex id made only of
// digits is indistinguishable from decimal and is read as decimal.
func parseTrxID(s string) (int64, bool) {
	if v, ok := parseLSN(s); ok {
		return v, true
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 16, 64)
	return v, err == nil
}

// parseMonitorTime reads the timestamp InnoDB prints at the start of the
// output and of a deadlock: "2018-10-12 19:11:10 0x7f..." (5.6+) or
// "120906  6:03:32" (5.5 and older). The server's time zone is not printed,
// so the wall-clock reading is returned as UTC.
func parseMonitorTime(line string) (time.Time, bool) {
	f := strings.Fields(line)
	if len(f) < 2 {
		return time.Time{}, false
	}
	layout := "2006-01-02 15:04:05"
	if len(f[0]) == 6 {
		layout = "060102 15:04:05"
	}
	// 5.1 glues "TOO DEEP OR LONG SEARCH..." to the clock: "17:39:24TOO"
	clock := f[1]
	if n := strings.IndexFunc(clock, func(r rune) bool { return !(r >= '0' && r <= '9' || r == ':') }); n >= 0 {
		clock = clock[:n]
	}
	if len(clock) == 7 { // "6:03:32": hour printed without padding
		clock = "0" + clock
	}
	t, err := time.Parse(layout, f[0]+" "+clock)
	return t, err == nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
