package recording

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// Counter digits: each value is a difference d of two uint64 counters taken
// modulo 2^64, read as a signed number. Counters only grow, and byte
// counters move in whole 4 KiB pages, so d is written in units (a tick, a
// page): d/unit in base 32, most significant digit first, with the digits
// of indexDigits: 32-63 for every digit but the last, 0-31 for the last. A
// busy connection's second is then one character per counter, up to 31
// ticks or 31 pages (124 KiB). Any other difference (negative, not whole
// pages) is written as '~', the decimal digits of d modulo 2^64, and '.';
// so every pair of counters round-trips exactly.
const pageBytes = 4096

func writeCounter(b *strings.Builder, diff uint64, unit int64) {
	d := int64(diff)
	if d < 0 || d%unit != 0 {
		b.WriteByte('~')
		b.WriteString(strconv.FormatUint(diff, 10))
		b.WriteByte('.')
		return
	}
	writeCode(b, uint64(d/unit))
}

// writeCode writes code in base 32 with indexDigits: 32-63 for every digit
// but the last, 0-31 for the last, most significant first.
func writeCode(b *strings.Builder, code uint64) {
	var tmp [14]byte
	i := len(tmp) - 1
	tmp[i] = indexDigits[code&31]
	for code >>= 5; code > 0; code >>= 5 {
		i--
		tmp[i] = indexDigits[32+(code&31)]
	}
	b.Write(tmp[i:])
}

// readCode reads the code that starts at s[i]; next is the index after it.
func readCode(s string, i int) (code uint64, next int, err error) {
	for {
		if i >= len(s) || code >= 1<<59 {
			return 0, 0, errDigits
		}
		x := digitValue[s[i]]
		i++
		if x < 0 {
			return 0, 0, errDigits
		}
		code = code<<5 | uint64(x&31)
		if x < 32 {
			return code, i, nil
		}
	}
}

var errDigits = errors.New("counter digits damaged")

// writeSigned writes a difference that may be negative (a gauge going down):
// zigzag(d), which every int64 has.
func writeSigned(b *strings.Builder, diff uint64) { writeCode(b, zigzag(int64(diff))) }

// readSigned decodes n values written by writeSigned, as differences modulo 2^64.
func readSigned(s string, n int) ([]uint64, error) {
	out := make([]uint64, 0, n)
	for i := 0; i < len(s); {
		code, next, err := readCode(s, i)
		if err != nil {
			return nil, err
		}
		out = append(out, uint64(unzigzag(code)))
		i = next
	}
	if len(out) != n {
		return nil, errDigits
	}
	return out, nil
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// readCounters decodes n differences written by writeCounter.
func readCounters(s string, n int, unit uint64) ([]uint64, error) {
	out := make([]uint64, 0, n)
	for i := 0; i < len(s); {
		if s[i] == '~' {
			end := strings.IndexByte(s[i:], '.')
			if end < 2 {
				return nil, errDigits
			}
			v, err := strconv.ParseUint(s[i+1:i+end], 10, 64)
			if err != nil {
				return nil, errDigits
			}
			out = append(out, v)
			i += end + 1
			continue
		}
		code, next, err := readCode(s, i)
		if err != nil {
			return nil, err
		}
		i = next
		if code > math.MaxInt64/unit {
			return nil, errDigits // never written: it would have been spelt out
		}
		out = append(out, code*unit)
	}
	if len(out) != n {
		return nil, errDigits
	}
	return out, nil
}
