package recording

import (
	"strings"
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	start := time.Date(2026, 12, 1, 23, 58, 30, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Time
		err  bool
	}{
		{"+90s", start.Add(90 * time.Second), false},
		{" +5m ", start.Add(5 * time.Minute), false},
		{"2026-12-01T23:59:00Z", time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC), false},
		{"2026-12-01T23:59:00.25+01:00", time.Date(2026, 12, 1, 22, 59, 0, 250e6, time.UTC), false},
		{"2026-12-01 23:59:00", time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC), false},
		{"2026/12/01 23:59:00", time.Date(2026, 12, 1, 23, 59, 0, 0, time.UTC), false},
		{"23:59:10", time.Date(2026, 12, 1, 23, 59, 10, 0, time.UTC), false},
		{"23:58", time.Date(2026, 12, 1, 23, 58, 0, 0, time.UTC), false}, // within the minute before the start
		{"00:01", time.Date(2026, 12, 2, 0, 1, 0, 0, time.UTC), false},   // past midnight
		{"+5x", time.Time{}, true},
		{"90s", time.Time{}, true},
		{"25:00", time.Time{}, true},
	}
	for _, c := range cases {
		got, err := ParseTime(c.in, start)
		if (err != nil) != c.err || !got.Equal(c.want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v (error %v)", c.in, got, err, c.want, c.err)
		}
	}
	if _, err := ParseTime("12:00", time.Time{}); err == nil {
		t.Error("a clock time with no start to put it on was accepted")
	}
}

// FuzzParseTime checks --at/--from/--to against the source's start: an
// error comes with no time, an offset is start plus the offset, a clock time
// reads its own clock and lands from a minute before the start to a day
// after it, and any time returned, printed in RFC 3339, parses back to the
// same instant.
func FuzzParseTime(f *testing.F) {
	start := time.Date(2026, 12, 1, 23, 58, 30, 0, time.UTC).Unix()
	for _, s := range []string{"+90s", "+-5m", "2026-12-01T23:59:00.25+01:00", "2026-12-01 23:59:00",
		"2026/12/01 23:59:00", "2026-12-01T23:59:00", "23:59:10", "00:01", "25:00", "12:00:00.5"} {
		f.Add(s, start, int64(0), int16(0))
	}
	f.Add("00:00:10", start, int64(5e8), int16(-420))
	f.Add("07:00", int64(0), int64(0), int16(0)) // no start: clock times are an error
	f.Fuzz(func(t *testing.T, s string, startSec, startNS int64, zoneMin int16) {
		loc := time.FixedZone("z", int(zoneMin)%(18*60)*60)
		var start time.Time
		if startSec != 0 {
			// 1970 to 2096, so start plus any offset stays within the years
			// RFC 3339 can print.
			start = time.Unix((startSec%4e9+4e9)%4e9, startNS%1e9).In(loc)
		}
		got, err := ParseTime(s, start)
		if err != nil {
			if !got.IsZero() {
				t.Fatalf("%q: error %v and time %v", s, err, got)
			}
			return
		}
		typed := strings.TrimSpace(s)
		if off, ok := strings.CutPrefix(typed, "+"); ok {
			d, _ := time.ParseDuration(off)
			if !got.Equal(start.Add(d)) {
				t.Fatalf("%q from %v = %v", s, start, got)
			}
		}
		clock, err := time.Parse("15:04:05", typed)
		if err != nil {
			clock, err = time.Parse("15:04", typed)
		}
		if err == nil {
			if start.IsZero() {
				t.Fatalf("%q accepted with no start: %v", s, got)
			}
			if got.Hour() != clock.Hour() || got.Minute() != clock.Minute() || got.Second() != clock.Second() {
				t.Fatalf("%q read as %v", s, got)
			}
			if got.Before(start.Add(-time.Minute)) || !got.Before(start.Add(24*time.Hour)) {
				t.Fatalf("%q from %v = %v, not within a day of the start", s, start, got)
			}
		}
		text := got.Format(time.RFC3339Nano)
		if again, err := ParseTime(text, start); err != nil || !again.Equal(got) {
			t.Fatalf("%q = %v; printed %q parses to %v, %v", s, got, text, again, err)
		}
	})
}

// The --at, --from and --to flags: empty is the zero time (snapshot's --at:
// the end), a bad time names its flag, and a period or moment that cannot be
// in the source is refused.
func TestTimeFlags(t *testing.T) {
	start := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	end := start.Add(time.Minute)
	if at, err := TimeFlag("at", "", start); err != nil || !at.IsZero() {
		t.Errorf("empty --at: %v, %v", at, err)
	}
	if _, err := TimeFlag("at", "soon", start); err == nil || !strings.HasPrefix(err.Error(), `--at: "soon" is not a time`) {
		t.Errorf("--at soon: %v", err)
	}
	from, to, err := Period("+10s", "", start)
	if err != nil || !from.Equal(start.Add(10*time.Second)) || !to.IsZero() {
		t.Errorf("--from +10s: %v .. %v, %v", from, to, err)
	}
	if _, _, err := Period("+20s", "+10s", start); err == nil || err.Error() != "--to +10s is before --from +20s" {
		t.Errorf("--to before --from: %v", err)
	}
	if _, _, err := Period("", "x", start); err == nil || !strings.HasPrefix(err.Error(), "--to: ") {
		t.Errorf("--to x: %v", err)
	}
	for _, c := range []struct {
		at   string
		want time.Time
		err  string
	}{
		{"", end, ""},
		{"+30s", start.Add(30 * time.Second), ""},
		{"+61s", start.Add(61 * time.Second), ""},
		{"+62s", time.Time{}, "--at 2026-12-01 14:01:02 is outside the source (2026-12-01 14:00:00 .. 2026-12-01 14:01:00)"},
		{"13:59", time.Time{}, "is outside the source"},
	} {
		at, err := Moment(c.at, start, end)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("--at %q: %v, want %q", c.at, err, c.err)
			}
			continue
		}
		if err != nil || !at.Equal(c.want) {
			t.Errorf("--at %q: %v, %v; want %v", c.at, at, err, c.want)
		}
	}
}
