package recording

import "errors"

// Index columns (which string of the table each thread's user, host, ...
// is) are stored as one JSON string per column, each index written as
// fixed-width base-64 digits, rather than as arrays of numbers. On a busy
// server nearly every thread changes statement every second, so the activity
// column is almost all new bytes: one character per thread Huffman-codes to
// about half the bits of "26," (measured on 100 busy connections: 33 B less
// per delta frame than arrays of numbers).
const indexDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"

// indexWidth is how many digits an index into a table of n strings needs.
func indexWidth(n int) int {
	w := 1
	for n > len(indexDigits) {
		n = (n + len(indexDigits) - 1) / len(indexDigits)
		w++
	}
	return w
}

// encodeIndexes writes idx, each in width digits, most significant first.
func encodeIndexes(idx []int, width int) string {
	b := make([]byte, len(idx)*width)
	for i, v := range idx {
		for d := width - 1; d >= 0; d-- {
			b[i*width+d] = indexDigits[v%len(indexDigits)]
			v /= len(indexDigits)
		}
	}
	return string(b)
}

var errIndexes = errors.New("processlist index column damaged")

// digitValue maps a byte to its digit value, -1 for bytes that are not digits.
var digitValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := range len(indexDigits) {
		t[indexDigits[i]] = int8(i)
	}
	return t
}()

// decodeIndexes reads n indexes of width digits from s, each below limit.
func decodeIndexes(s string, n, width, limit int) ([]int, error) {
	if len(s) != n*width {
		return nil, errColumns
	}
	out := make([]int, n)
	for i := range out {
		v := 0
		for d := range width {
			x := digitValue[s[i*width+d]]
			if x < 0 {
				return nil, errIndexes
			}
			v = v*len(indexDigits) + int(x)
		}
		if v >= limit {
			return nil, errIndexRange
		}
		out[i] = v
	}
	return out, nil
}
