package parse

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// ProcesslistColumns is the column order of a tab-separated SHOW FULL
// PROCESSLIST, as named by its header row.
type ProcesslistColumns []string

// DefaultProcesslistColumns is the layout assumed when a capture has no header
// row (mysql -N): the columns every server prints, in their usual order.
var DefaultProcesslistColumns = ProcesslistColumns{"Id", "User", "Host", "db", "Command", "Time", "State", "Info"}

// ParseProcesslistHeader recognises the header row `Id<TAB>User<TAB>Host...`.
func ParseProcesslistHeader(line string) (ProcesslistColumns, bool) {
	cols := strings.Split(strings.TrimSpace(line), "\t")
	if len(cols) < 5 || cols[0] != "Id" || cols[1] != "User" {
		return nil, false
	}
	for i := range cols {
		cols[i] = strings.TrimSpace(cols[i])
	}
	return cols, true
}

// ParseRow reads one tab-separated row laid out as c. Trailing columns a shell
// stripped count as empty; extra tabs are kept inside the last column when it
// is Info, the one free-text column. Under any other last column they mean
// the row is not laid out as c.
func (c ProcesslistColumns) ParseRow(line string) (snapshot.Process, error) {
	line = strings.TrimRight(line, "\r\n")
	n := -1
	if strings.EqualFold(c[len(c)-1], "info") {
		n = len(c)
	}
	fields := strings.SplitN(line, "\t", n)
	if len(fields) < 2 || len(fields) > len(c) {
		return snapshot.Process{}, fmt.Errorf("processlist row has %d columns, want %d", len(fields), len(c))
	}
	p := newProcess()
	for i, v := range fields {
		if _, err := setProcessField(&p, c[i], v); err != nil {
			return snapshot.Process{}, err
		}
	}
	return p, nil
}

// newProcess is an empty row whose unknown figures read as unknown.
func newProcess() snapshot.Process { return snapshot.Process{ExaminedRows: -1} }

// setProcessField stores one column of a processlist row into p, by the column
// name the server printed. known is false for a column p has no place for;
// err is set when a numeric column does not hold a number.
func setProcessField(p *snapshot.Process, column, value string) (known bool, err error) {
	value = strings.TrimSpace(value)
	switch strings.ToLower(column) {
	case "id":
		p.ID, err = strconv.ParseInt(value, 10, 64)
	case "user":
		p.User = nullToEmpty(value)
	case "host":
		p.Host = nullToEmpty(value)
	case "db":
		p.DB = nullToEmpty(value)
	case "command":
		p.Command = value
	case "time":
		err = setSeconds(p, value)
	case "time_ms":
		err = setMillis(p, value)
	case "state":
		p.State = nullToEmpty(value)
	case "info":
		p.Info = nullToEmpty(value)
	case "progress":
		p.Progress, err = parseOptionalFloat(value)
	case "rows_examined", "examined_rows":
		p.ExaminedRows, err = parseOptionalInt(value, -1)
	default:
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("processlist column %s: %q is not a number", column, value)
	}
	return true, nil
}

// setSeconds keeps a finer Time_ms when the row already had one. Seconds
// whose milliseconds overflow are out of range, as ParseInt says of digits
// beyond an int64, rather than wrapping to a negative time.
func setSeconds(p *snapshot.Process, value string) error {
	v, err := parseOptionalInt(value, 0)
	if err == nil && (v > math.MaxInt64/1000 || v < math.MinInt64/1000) {
		return strconv.ErrRange
	}
	if err == nil && (p.TimeMS == 0 || p.TimeMS/1000 != v) {
		p.TimeMS = v * 1000
	}
	return err
}

func setMillis(p *snapshot.Process, value string) error {
	v, err := parseOptionalFloat(value)
	if err == nil && !(v >= math.MinInt64 && v < math.MaxInt64) {
		return strconv.ErrRange // NaN, Inf or beyond an int64: converting would wrap
	}
	if err == nil {
		p.TimeMS = int64(v)
	}
	return err
}

// ParseVerticalRowMarker recognises the `*** N. row ***` line that starts each
// record of \G output and returns N.
func ParseVerticalRowMarker(line string) (n int, ok bool) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "***") || !strings.HasSuffix(s, "***") {
		return 0, false
	}
	s = strings.TrimSpace(strings.Trim(s, "*"))
	num, ok := strings.CutSuffix(s, ". row")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil
}

// parseVerticalField splits a `   Command: Query` line of \G output. ok is false
// for lines that do not start with a column name and a colon, which in \G output
// are continuation lines of a multi-line value.
func parseVerticalField(line string) (key, value string, ok bool) {
	line = strings.TrimRight(line, "\r\n")
	trimmed := strings.TrimLeft(line, " ")
	key, value, found := strings.Cut(trimmed, ":")
	if !found || !isVariableName(key) {
		return "", "", false
	}
	if value != "" && value[0] != ' ' {
		return "", "", false
	}
	return key, strings.TrimPrefix(value, " "), true
}

// ParseProcesslistTSV parses a whole tab-separated processlist; a header row,
// if present, sets the column order.
func ParseProcesslistTSV(text string) ([]snapshot.Process, error) {
	cols := DefaultProcesslistColumns
	var out []snapshot.Process
	for line := range strings.Lines(text) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if h, ok := ParseProcesslistHeader(line); ok {
			cols = h
			continue
		}
		p, err := cols.ParseRow(line)
		if err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, nil
}

// parseProcesslistVertical parses a whole SHOW FULL PROCESSLIST\G output.
func parseProcesslistVertical(text string) ([]snapshot.Process, error) {
	var out []snapshot.Process
	var rec *ProcessRecord
	flush := func() {
		if rec != nil {
			out = append(out, rec.Process)
		}
	}
	for line := range strings.Lines(text) {
		if _, ok := ParseVerticalRowMarker(line); ok {
			flush()
			rec = NewProcessRecord()
			continue
		}
		if rec == nil {
			if strings.TrimSpace(line) == "" {
				continue
			}
			return out, fmt.Errorf("text before the first row marker: %.40q", line)
		}
		if err := rec.Add(line); err != nil {
			return out, err
		}
	}
	flush()
	return out, nil
}

// ProcessRecord gathers the lines of one \G processlist record.
type ProcessRecord struct {
	Process snapshot.Process
	last    string // column the previous field line set
	colon   int    // where ':' sits on field lines: \G right-aligns the names
	// blanks counts blank lines after Info, kept only if more of Info follows:
	// the client prints an empty line after the last record, and "Info: NULL"
	// followed by it is no query text.
	blanks int
	// info gathers a multi-line Info: added to a string line by line, a
	// dump's statement of thousands of lines cost its length squared.
	info strings.Builder
}

// NewProcessRecord starts a record.
func NewProcessRecord() *ProcessRecord { return &ProcessRecord{Process: newProcess()} }

// Add takes one line after the row marker. A line is a field when its colon lines
// up with the record's other fields; otherwise it continues a multi-line Info.
// Columns the model has no place for (Rows_sent, Memory_used) are skipped.
func (r *ProcessRecord) Add(line string) error {
	if key, value, ok := parseVerticalField(line); ok {
		col := strings.IndexByte(line, ':')
		if r.colon == 0 || col == r.colon {
			r.colon, r.last, r.blanks = col, key, 0
			_, err := setProcessField(&r.Process, key, value)
			return err
		}
	}
	if strings.EqualFold(r.last, "info") {
		if strings.TrimSpace(line) == "" {
			r.blanks++
			return nil
		}
		if r.info.Len() == 0 {
			r.info.WriteString(r.Process.Info)
		}
		r.info.WriteString(strings.Repeat("\n", r.blanks+1))
		r.info.WriteString(strings.TrimRight(line, "\r\n"))
		r.Process.Info = r.info.String()
		r.blanks = 0
		return nil
	}
	if strings.TrimSpace(line) == "" {
		return nil
	}
	return fmt.Errorf("unexpected line in processlist record: %.40q", line)
}

func nullToEmpty(s string) string {
	if s == "NULL" {
		return ""
	}
	return s
}

func parseOptionalInt(s string, unknown int64) (int64, error) {
	if s == "" || s == "NULL" {
		return unknown, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

func parseOptionalFloat(s string) (float64, error) {
	if s == "" || s == "NULL" {
		return 0, nil
	}
	return strconv.ParseFloat(s, 64)
}
