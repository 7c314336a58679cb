package ui

import (
	"strings"
	"testing"
	"time"
)

func TestParseJumpTime(t *testing.T) {
	// A replay from 23:58:30.4 to 00:03:10 the next day, now at 23:59:50.
	from := time.Date(2026, 11, 30, 23, 58, 30, 400e6, time.UTC)
	to := time.Date(2026, 12, 1, 0, 3, 10, 0, time.UTC)
	at := time.Date(2026, 11, 30, 23, 59, 50, 0, time.UTC)
	nov30 := func(h, m, s int) time.Time { return time.Date(2026, 11, 30, h, m, s, 0, time.UTC) }
	dec1 := func(h, m, s int) time.Time { return time.Date(2026, 12, 1, h, m, s, 0, time.UTC) }
	cases := []struct {
		in      string
		want    time.Time
		wantErr string
	}{
		{"+90s", at.Add(90 * time.Second), ""},
		{"-30s", at.Add(-30 * time.Second), ""},
		{" +1m5s ", at.Add(65 * time.Second), ""},
		{"+2h", to, ""},    // offsets stop at the end
		{"-10m", from, ""}, // and at the start
		{"23:59:00", nov30(23, 59, 0), ""},
		{"00:01:00", dec1(0, 1, 0), ""}, // past midnight: the next day
		{"00:01", dec1(0, 1, 0), ""},
		{"23:58:30", from, ""}, // the first frame's whole second
		{"2026-12-01 00:02:00", dec1(0, 2, 0), ""},
		{"2026-12-01T00:02:00", dec1(0, 2, 0), ""},
		{"2026-12-01T00:02:00Z", dec1(0, 2, 0), ""},
		{"12:00:00", time.Time{}, "outside this replay (2026-11-30 23:58:30 – 2026-12-01 00:03:10)"},
		{"2026-12-02 00:02:00", time.Time{}, "outside this replay"},
		{"", time.Time{}, "type a time"},
		{"+5x", time.Time{}, `"+5x" is not an offset`},
		{"90s", time.Time{}, `"90s" is not a time`},
		{"25:00:00", time.Time{}, "is not a time"},
	}
	for _, c := range cases {
		got, err := parseJumpTime(c.in, at, from, to)
		switch {
		case c.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q: err = %v, want %q", c.in, err, c.wantErr)
			}
		case err != nil:
			t.Errorf("%q: %v", c.in, err)
		case !got.Equal(c.want):
			t.Errorf("%q = %v, want %v", c.in, got, c.want)
		}
	}
}

// FuzzParseJumpTime checks what g accepts against the replay it jumps in: a
// time it returns lies within the replay, an offset lands where at+offset
// does (stopped at the ends), and the time it returns, typed back as a date
// and time or as a clock time, jumps to the same second.
func FuzzParseJumpTime(f *testing.F) {
	from := time.Date(2026, 11, 30, 23, 58, 30, 400e6, time.UTC)
	f.Add("23:59:00", from.Unix(), int64(400e6), uint32(280), uint32(80), int16(0))
	f.Add("00:01", from.Unix(), int64(400e6), uint32(280), uint32(80), int16(0))
	f.Add(" +1m5s ", from.Unix(), int64(0), uint32(280), uint32(0), int16(60))
	f.Add("-10m", from.Unix(), int64(0), uint32(280), uint32(280), int16(-300))
	f.Add("2026-12-01T00:02:00Z", from.Unix(), int64(999e6), uint32(3*86400), uint32(86400), int16(330))
	f.Add("2026-12-01 00:02", from.Unix(), int64(0), uint32(600), uint32(1), int16(0))
	f.Add("25:00:00", from.Unix(), int64(0), uint32(600), uint32(1), int16(0))
	f.Fuzz(func(t *testing.T, s string, fromSec, fromNS int64, span, atOff uint32, zoneMin int16) {
		loc := time.FixedZone("z", int(zoneMin)%(18*60)*60)
		from := time.Unix(fromSec%4e9, fromNS%1e9).In(loc)
		if from.Year() < 1970 {
			from = from.AddDate(100, 0, 0)
		}
		span %= 7 * 86400
		to := from.Add(time.Duration(span) * time.Second)
		at := from.Add(time.Duration(atOff%(span+1)) * time.Second)
		got, err := parseJumpTime(s, at, from, to)
		if err != nil {
			if !got.IsZero() {
				t.Fatalf("%q: error %v and time %v", s, err, got)
			}
			return
		}
		if got.Before(from) || got.After(to) {
			t.Fatalf("%q jumps to %v, outside %v – %v", s, got, from, to)
		}
		if typed := strings.TrimSpace(s); typed[0] == '+' || typed[0] == '-' {
			d, _ := time.ParseDuration(typed)
			if want := clampTime(at.Add(d), from, to); !got.Equal(want) {
				t.Fatalf("%q from %v = %v, want %v", s, at, got, want)
			}
		}
		// Typed back, got reads as its own second; the first frame's
		// fraction cannot be typed, so that one second reads as from.
		want := got.Truncate(time.Second)
		if want.Before(from) {
			want = from
		}
		for _, text := range []string{got.Format("2006-01-02 15:04:05"), got.Format("15:04:05")} {
			again, err := parseJumpTime(text, got, from, to)
			if err != nil || !again.Equal(want) {
				t.Fatalf("%q → %v; typed back as %q → %v, %v; want %v", s, got, text, again, err, want)
			}
		}
	})
}
