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
