package parse

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The boxed processlist is what the mysql client draws on a terminal (or with
// -t): `| Id | User | ... | Info |` between `+----+` borders. Cells are
// padded with spaces; Info, the only free-text column and the last one, may
// itself hold a '|', so a row is cut into the header's count of cells from the
// left and whatever remains is Info.

// ParseBoxedProcesslistHeader recognises the `| Id | User | Host |...` row
// and returns its columns.
func ParseBoxedProcesslistHeader(line string) (ProcesslistColumns, bool) {
	cells, ok := boxedCells(line, 0)
	if !ok || len(cells) < 5 || cells[0] != "Id" || cells[1] != "User" {
		return nil, false
	}
	return ProcesslistColumns(cells), true
}

// ParseBoxedRow reads one `| 9 | app | ... |` row laid out as c.
func (c ProcesslistColumns) ParseBoxedRow(line string) (snapshot.Process, error) {
	cells, ok := boxedCells(line, len(c))
	if !ok || len(cells) != len(c) {
		return snapshot.Process{}, fmt.Errorf("boxed processlist row has %d cells, want %d", len(cells), len(c))
	}
	p := newProcess()
	for i, v := range cells {
		if _, err := setProcessField(&p, c[i], v); err != nil {
			return snapshot.Process{}, err
		}
	}
	return p, nil
}

// IsBoxBorder reports whether line is a `+----+----+` border of a boxed table.
func IsBoxBorder(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) > 1 && line[0] == '+' && strings.Trim(line, "+-") == ""
}

// boxedCells splits `| a | b | c |` into trimmed cells; with n > 0 the n-th
// cell takes the rest of the row, '|' included.
func boxedCells(line string, n int) ([]string, bool) {
	line = strings.TrimSpace(line)
	if len(line) < 2 || line[0] != '|' || line[len(line)-1] != '|' {
		return nil, false
	}
	inner := line[1 : len(line)-1]
	var cells []string
	if n > 0 {
		cells = strings.SplitN(inner, "|", n)
	} else {
		cells = strings.Split(inner, "|")
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells, true
}

// parseProcesslistBoxed parses a whole boxed SHOW FULL PROCESSLIST table.
func parseProcesslistBoxed(text string) ([]snapshot.Process, error) {
	var cols ProcesslistColumns
	var out []snapshot.Process
	for line := range strings.Lines(text) {
		if strings.TrimSpace(line) == "" || IsBoxBorder(line) {
			continue
		}
		if h, ok := ParseBoxedProcesslistHeader(line); ok {
			cols = h
			continue
		}
		if cols == nil {
			return out, fmt.Errorf("text before the boxed processlist header: %.40q", line)
		}
		p, err := cols.ParseBoxedRow(line)
		if err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, nil
}
