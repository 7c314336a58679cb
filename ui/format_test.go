package ui

import (
	"math"
	"testing"
	"time"
)

func TestNumberFormats(t *testing.T) {
	cases := []struct {
		got, want string
	}{
		{commas(0), "0"}, {commas(999), "999"}, {commas(1000), "1,000"}, {commas(2104331), "2,104,331"},
		{commas(-1234), "-1,234"},
		{short(0.5), "0.5"}, {short(41), "41"}, {short(1482), "1,482"}, {short(41000), "41,000"},
		{short(412_000), "412k"}, {short(4_200_000), "4.2M"}, {short(1.3e9), "1.3G"}, {short(math.NaN()), "-"},
		{pct(0.23), "0.2%"}, {pct(12.4), "12%"},
		{bytesShort(128 << 20), "128M"}, {bytesShort(1.5 * (1 << 30)), "1.5G"}, {bytesShort(512), "512B"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestDurations(t *testing.T) {
	cases := []struct {
		got, want string
	}{
		{age(48 * time.Second), "48s"}, {age(725 * time.Second), "12m05s"}, {age(3*time.Hour + 4*time.Minute), "3h04m"},
		{age(76 * time.Hour), "3d04h"}, {age(-time.Second), "0s"},
		{clock(41 * time.Second), "0:41"}, {clock(72 * time.Second), "1:12"}, {clock(3723 * time.Second), "1:02:03"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestFitDropsLeastImportantFirst(t *testing.T) {
	items := []item{{"aaaa", 9}, {"bbbb", 1}, {"cccc", 5}}
	if got := fit(items, 100); got != "aaaa  bbbb  cccc" {
		t.Errorf("wide: %q", got)
	}
	if got := fit(items, 12); got != "aaaa  cccc" {
		t.Errorf("narrow: %q", got)
	}
	if got := fit([]item{{"[red]aaaa[-]", 1}}, 4); got != "[red]aaaa[-]" {
		t.Errorf("tags must not count as width: %q", got)
	}
}
