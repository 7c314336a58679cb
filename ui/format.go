package ui

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// commas writes n with thousands separators: 2,104,331.
func commas(n int64) string {
	if n < 0 {
		return "-" + commas(-n)
	}
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	lead := len(s) % 3
	if lead > 0 {
		out = append(out, s[:lead]...)
	}
	for i := lead; i < len(s); i += 3 {
		if len(out) > 0 {
			out = append(out, ',')
		}
		out = append(out, s[i:i+3]...)
	}
	return string(out)
}

// short writes a rate compactly: 0.5, 41, 1,482, 41k, 4.2M.
func short(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "-"
	case a < 10 && v != math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a < 100000:
		return commas(int64(math.Round(v)))
	case a < 1e6:
		return fmt.Sprintf("%.0fk", v/1e3)
	case a < 1e9:
		return fmt.Sprintf("%.1fM", v/1e6)
	default:
		return fmt.Sprintf("%.1fG", v/1e9)
	}
}

// pct writes a percentage with one decimal below 10 %.
func pct(v float64) string {
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + "%"
}

// bytesShort writes a size in binary units: 128M, 1.5G.
func bytesShort(n float64) string {
	units := []string{"B", "K", "M", "G", "T"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if n < 10 && n != math.Trunc(n) {
		return fmt.Sprintf("%.1f%s", n, units[i])
	}
	return fmt.Sprintf("%.0f%s", n, units[i])
}

// age writes a duration the way a DBA reads process times: 48s, 12m05s, 3h04m, 3d04h.
func age(d time.Duration) string {
	s := int64(d / time.Second)
	switch {
	case s < 0:
		return "0s"
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	case s < 86400:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
	default:
		return fmt.Sprintf("%dd%02dh", s/86400, s%86400/3600)
	}
}

// clock writes how long something has been active: 0:41, 1:12, 1:02:03.
func clock(d time.Duration) string {
	s := int64(d / time.Second)
	if s < 0 {
		s = 0
	}
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
