package snapshot

import "strconv"

// StatusValue returns a status value as the server printed it, from the
// status map or, in a window frame the pipeline thinned, what it kept.
func (s *Snapshot) StatusValue(name string) (string, bool) {
	if s.Status == nil && s.Kept != nil {
		return s.Kept.Lookup(name)
	}
	v, ok := s.Status[name]
	return v, ok
}

// HasStatus says the sample has status values (a thinned frame's kept
// ones count).
func (s *Snapshot) HasStatus() bool { return s.Status != nil || s.Kept != nil }

// StatusFloat returns a numeric status value.
func (s *Snapshot) StatusFloat(name string) (float64, bool) {
	return parseNumber(s.StatusValue(name))
}

// StatusInt returns a numeric status value, truncated.
func (s *Snapshot) StatusInt(name string) (int64, bool) {
	v, ok := s.StatusFloat(name)
	return int64(v), ok
}

// VarFloat returns a numeric variable value.
func (s *Snapshot) VarFloat(name string) (float64, bool) {
	return parseNumber(s.Var(name))
}

// Var returns a variable's text.
func (s *Snapshot) Var(name string) (string, bool) {
	v, ok := s.Variables[name]
	return v, ok
}

// Uptime returns the server's Uptime status in seconds.
func (s *Snapshot) Uptime() (int64, bool) { return s.StatusInt("Uptime") }

func parseNumber(raw string, ok bool) (float64, bool) {
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}
