package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

var (
	jumpDateLayouts  = []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", time.RFC3339}
	jumpClockLayouts = []string{"15:04:05", "15:04"}
)

// parseJumpTime reads what the user typed after g: an offset from the current
// position (+90s, -5m), a date and time, or a clock time. A clock time is
// taken on the day of the current position, or the day before or after when
// only that lies in the replay (a capture that spans midnight). Offsets stop
// at the ends of the replay like the other seek keys; an absolute time outside
// it is an error, since it is most likely a typo.
func parseJumpTime(s string, at, from, to time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, errors.New("type a time such as 15:04:05 or an offset such as +90s")
	}
	if s[0] == '+' || s[0] == '-' {
		d, err := time.ParseDuration(s)
		if err != nil {
			return time.Time{}, fmt.Errorf("%q is not an offset: use +90s, -30s, +5m or -1h30m", s)
		}
		return clampTime(at.Add(d), from, to), nil
	}
	loc := at.Location()
	for _, layout := range jumpDateLayouts {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return inReplay(t, s, from, to)
		}
	}
	for _, layout := range jumpClockLayouts {
		if c, err := time.ParseInLocation(layout, s, loc); err == nil {
			return clockInReplay(c, s, at, from, to)
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time: use 15:04:05, 2006-01-02 15:04:05, +90s or -30s", s)
}

// clockInReplay puts clock time c on the current day, else on a neighbouring
// one that the replay covers.
func clockInReplay(c time.Time, typed string, at, from, to time.Time) (time.Time, error) {
	y, m, d := at.Date()
	day := time.Date(y, m, d, c.Hour(), c.Minute(), c.Second(), 0, at.Location())
	for _, t := range []time.Time{day, day.AddDate(0, 0, -1), day.AddDate(0, 0, 1)} {
		if got, err := inReplay(t, typed, from, to); err == nil {
			return got, nil
		}
	}
	return inReplay(day, typed, from, to)
}

// inReplay accepts t within the replay. The first frame usually has a
// fraction of a second the user cannot type, so its whole second counts.
func inReplay(t time.Time, typed string, from, to time.Time) (time.Time, error) {
	if t.Before(from.Truncate(time.Second)) || t.After(to) {
		layout := "15:04:05"
		if !sameDay(from, to) {
			layout = "2006-01-02 15:04:05"
		}
		return time.Time{}, fmt.Errorf("%s is outside this replay (%s – %s)", typed, from.Format(layout), to.Format(layout))
	}
	return clampTime(t, from, to), nil
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

func clampTime(t, from, to time.Time) time.Time {
	if t.Before(from) {
		return from
	}
	if t.After(to) {
		return to
	}
	return t
}
