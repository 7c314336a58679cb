package recording

import (
	"fmt"
	"strings"
	"time"
)

// ParseTime reads the times users type for a moment of a source (replay
// --at, report --from/--to): RFC 3339, a date
// and time, a clock time on the source's first day, or an offset from the
// source's start like "+90s".
func ParseTime(s string, start time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "+") {
		d, err := time.ParseDuration(s[1:])
		if err != nil {
			return time.Time{}, fmt.Errorf("%q: offset must look like +90s or +5m", s)
		}
		return start.Add(d), nil
	}
	loc := time.Local
	if !start.IsZero() {
		loc = start.Location()
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006/01/02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	for _, layout := range []string{"15:04:05", "15:04"} {
		if c, err := time.ParseInLocation(layout, s, loc); err == nil && !start.IsZero() {
			y, m, d := start.Date()
			t := time.Date(y, m, d, c.Hour(), c.Minute(), c.Second(), 0, loc)
			if t.Before(start.Add(-time.Minute)) {
				t = t.AddDate(0, 0, 1) // a clock time past midnight of a capture that spans it
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time (use 2006-01-02 15:04:05, 15:04:05, RFC 3339 or +90s)", s)
}

// TimeFlag is ParseTime for the flag name (at, from, to): "" is the zero
// time, an error names the flag.
func TimeFlag(name, s string, start time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := ParseTime(s, start)
	if err != nil {
		return t, fmt.Errorf("--%s: %v", name, err)
	}
	return t, nil
}

// Period reads report's --from and --to against the source's start; either
// may be "" (from the start, to the end), and to is not before from.
func Period(fromS, toS string, start time.Time) (from, to time.Time, err error) {
	if from, err = TimeFlag("from", fromS, start); err != nil {
		return from, to, err
	}
	if to, err = TimeFlag("to", toS, start); err != nil {
		return from, to, err
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		return from, to, fmt.Errorf("--to %s is before --from %s", toS, fromS)
	}
	return from, to, nil
}

// Moment reads snapshot's --at: a moment of the source from start to end
// (and the second after, where its last frame is still shown); "" is end.
func Moment(atS string, start, end time.Time) (time.Time, error) {
	at, err := TimeFlag("at", atS, start)
	if at.IsZero() || err != nil {
		return end, err
	}
	if at.Before(start) || at.After(end.Add(time.Second)) {
		return at, fmt.Errorf("--at %s is outside the source (%s .. %s)", at.Format(time.DateTime), start.Format(time.DateTime), end.Format(time.DateTime))
	}
	return at, nil
}
