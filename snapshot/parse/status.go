package parse

import (
	"fmt"
	"strings"
)

// ParseStatusRow reads one row of a `Variable_name<TAB>Value` table as the mysql
// client prints it in batch mode (SHOW STATUS, SHOW VARIABLES). The header row,
// blank lines and anything whose first column is not a variable name give ok
// false, and so do rows of more than two columns (batch mode escapes tabs in
// values). A row reduced to its name (shells strip a trailing tab) has value "".
func ParseStatusRow(line string) (name, value string, ok bool) {
	line = strings.TrimRight(line, "\r\n")
	name, value, _ = strings.Cut(line, "\t")
	name = strings.TrimSpace(name)
	if !isVariableName(name) || name == "Variable_name" || strings.Contains(value, "\t") {
		return "", "", false
	}
	return name, value, true
}

// ParseBoxedRow reads one `| name | value |` row of a table drawn by mysql or
// mysqladmin (mysqladmin extended-status, mysql -t). Border rows, the header row
// and other text give ok false.
func ParseBoxedRow(line string) (name, value string, ok bool) {
	line = strings.TrimSpace(line)
	if len(line) < 3 || line[0] != '|' || line[len(line)-1] != '|' {
		return "", "", false
	}
	inner := line[1 : len(line)-1]
	name, value, found := strings.Cut(inner, "|")
	if !found {
		return "", "", false
	}
	name = strings.TrimSpace(name)
	if !isVariableName(name) || name == "Variable_name" {
		return "", "", false
	}
	return name, strings.TrimSpace(value), true
}

// IsBoxedHeader reports whether line is the `| Variable_name | Value |` header
// that starts each table mysqladmin extended-status prints.
func IsBoxedHeader(line string) bool {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") {
		return false
	}
	name, _, _ := strings.Cut(line[1:], "|")
	return strings.TrimSpace(name) == "Variable_name"
}

// ParseStatusTable parses a whole SHOW STATUS or SHOW VARIABLES table, in the
// tab-separated or the boxed form. Lines of neither form are skipped (titles,
// separators); no row at all is an error.
func ParseStatusTable(text string) (map[string]string, error) {
	out := make(map[string]string)
	for line := range strings.Lines(text) {
		name, value, ok := ParseBoxedRow(line)
		if !ok {
			name, value, ok = ParseStatusRow(line)
		}
		if ok {
			out[name] = value
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no Variable_name/Value rows found")
	}
	return out, nil
}

// isVariableName accepts status and variable names: letters, digits, '_', '.'
// (plugins such as wsrep and rocksdb use dots in a few names).
func isVariableName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '.':
		case c >= '0' && c <= '9':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}
