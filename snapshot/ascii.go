package snapshot

// LowerASCII lowers A-Z only, copying s only when it has one: thread states
// and lock-table keys are ASCII, and strings.ToLower's Unicode tables cost a
// hot path thousands of calls a frame.
func LowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
