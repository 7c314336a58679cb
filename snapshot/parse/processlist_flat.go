package parse

import (
	"strings"
	"time"
)

// A \G processlist whose line breaks were stripped (a copy passed through a
// tool that joined its lines) is one long line:
//
//	TS 1520256297.0 2018-03-05 13:24:57*** 1. row ***      Id: 689004    User: app ... Rows_read: 0*** 2. row ***...
//
// It can be restored because \G right-aligns every column name to the width
// of the longest one: each field starts where a known column name ends that
// width after the previous field, followed by ':'. A query text that itself
// holds such a padded name and colon would be cut there; that is the price,
// and the caller says the breaks were restored.

// verticalColumns are the column names SHOW FULL PROCESSLIST prints on MySQL,
// Percona Server and MariaDB.
var verticalColumns = []string{
	"Id", "User", "Host", "db", "Command", "Time", "State", "Info", "Rows_sent", "Rows_examined", "Rows_read",
	"Progress", "Memory_used", "Max_memory_used", "Tid", "Time_ms", "Stage", "Max_stage", "Examined_rows",
	"Sent_rows", "Query_id", "Info_binary",
}

const rowStars = "***************************"

// RestoreVerticalLines puts the line breaks back into a flattened \G
// processlist (with pt-stalk's TS markers, if any). ok is false when text is
// not one.
func RestoreVerticalLines(text string) (string, bool) {
	text = strings.TrimRight(text, "\r\n")
	pieces := splitAtRowMarkers(text)
	if len(pieces) < 2 {
		return "", false
	}
	var b strings.Builder
	width := 0
	for i, p := range pieces {
		if i%2 == 1 { // a row marker
			b.WriteString(p + "\n")
			continue
		}
		body, ts := cutTrailingTS(p)
		if i > 0 {
			if width == 0 {
				width = fieldWidth(body)
			}
			if width == 0 {
				return "", false
			}
			for _, f := range splitFlatFields(body, width) {
				b.WriteString(f + "\n")
			}
		} else if strings.TrimSpace(body) != "" {
			return "", false // text before the first row that is no TS marker
		}
		if ts != "" {
			b.WriteString(ts + "\n")
		}
	}
	return b.String(), true
}

// splitAtRowMarkers returns text, marker, text, marker, ..., text.
func splitAtRowMarkers(text string) []string {
	var out []string
	for {
		i := strings.Index(text, rowStars+" ")
		if i < 0 {
			return append(out, text)
		}
		rest := text[i+len(rowStars)+1:]
		j := strings.Index(rest, ". row "+rowStars)
		if j < 0 || !isDigits(rest[:j]) {
			return append(out, text)
		}
		end := i + len(rowStars) + 1 + j + len(". row "+rowStars)
		out = append(out, text[:i], text[i:end])
		text = text[end:]
	}
}

// cutTrailingTS splits a pt-stalk `TS <epoch> <date>` marker off the end.
func cutTrailingTS(s string) (body, ts string) {
	i := strings.LastIndex(s, "TS ")
	if i < 0 {
		return s, ""
	}
	rest := s[i:]
	if len(rest) < len("TS  ")+len(time.DateTime) {
		return s, ""
	}
	if _, err := time.Parse(time.DateTime, rest[len(rest)-len(time.DateTime):]); err != nil {
		return s, ""
	}
	return s[:i], rest
}

// fieldWidth is the width \G padded names to: the first field, spaces and a
// known name, up to its colon.
func fieldWidth(body string) int {
	colon := strings.IndexByte(body, ':')
	if colon < 0 || !isVerticalColumn(strings.TrimLeft(body[:colon], " ")) {
		return 0
	}
	return colon
}

// splitFlatFields cuts a record's fields apart, each restored as
// "<padded name>: value".
func splitFlatFields(body string, width int) []string {
	var out []string
	start := 0
	for start < len(body) {
		next := nextFieldStart(body, start+width+1, width)
		out = append(out, strings.TrimRight(body[start:next], " "))
		start = next
	}
	return out
}

// nextFieldStart is where the next padded name begins at or after from, or
// len(body).
func nextFieldStart(body string, from, width int) int {
	for j := from; j+width < len(body); j++ {
		if body[j+width] == ':' && isVerticalColumn(strings.TrimLeft(body[j:j+width], " ")) && isPadding(body[j:j+width]) {
			return j
		}
	}
	return len(body)
}

// isPadding: spaces, then a name with no space in it.
func isPadding(s string) bool {
	name := strings.TrimLeft(s, " ")
	return !strings.Contains(name, " ")
}

func isVerticalColumn(s string) bool {
	for _, c := range verticalColumns {
		if s == c {
			return true
		}
	}
	return false
}

func isDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
