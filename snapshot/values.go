package snapshot

import "strconv"

// StatusFloat returns a numeric status value.
func (s *Snapshot) StatusFloat(name string) (float64, bool) {
	return parseNumber(s.Status, name)
}

// StatusInt returns a numeric status value, truncated.
func (s *Snapshot) StatusInt(name string) (int64, bool) {
	v, ok := parseNumber(s.Status, name)
	return int64(v), ok
}

// VarFloat returns a numeric variable value.
func (s *Snapshot) VarFloat(name string) (float64, bool) {
	return parseNumber(s.Variables, name)
}

// Var returns a variable's text.
func (s *Snapshot) Var(name string) (string, bool) {
	v, ok := s.Variables[name]
	return v, ok
}

// Uptime returns the server's Uptime status in seconds.
func (s *Snapshot) Uptime() (int64, bool) { return s.StatusInt("Uptime") }

func parseNumber(m map[string]string, name string) (float64, bool) {
	raw, ok := m[name]
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}
