package changes

import (
	"fmt"
	"io"
	"strings"
)

// Line is one change in words: "variable query_cache_type: OFF → ON (at
// 14:02:11)", "status Created_tmp_disk_tables per second: 0.2 → 45 (×225)".
func (c Change) Line() string {
	what := ""
	if c.What != "" {
		what = " " + c.What
	}
	s := fmt.Sprintf("%s %s%s: %s → %s", c.Kind, c.Name, what, fmtValue(c.Before), fmtValue(c.After))
	if c.Factor != nil {
		s += fmt.Sprintf(" (×%s)", fmtFactor(*c.Factor))
	}
	if !c.When.IsZero() {
		s += " (at " + c.When.Format("2006-01-02 15:04:05") + ")"
	}
	return s
}

func fmtFactor(f float64) string {
	if f >= 10 || f == 0 {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.2g", f)
}

// WriteText prints the changes one per line, biggest first; limit 0 prints all.
func WriteText(w io.Writer, cs []Change, limit int) error {
	var b strings.Builder
	if len(cs) == 0 {
		b.WriteString("nothing moved beyond the thresholds\n")
	}
	for i, c := range cs {
		if limit > 0 && i == limit {
			fmt.Fprintf(&b, "… %d more (--format json lists all)\n", len(cs)-limit)
			break
		}
		b.WriteString(c.Line() + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fmtValue prints a figure without exponents: 4477862, not 4.477862e+06.
func fmtValue(v any) string {
	f, ok := v.(float64)
	if !ok {
		return fmt.Sprint(v)
	}
	if f >= 1e5 || f <= -1e5 {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprint(f)
}
