package connopt

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// optionGroups are the my.cnf sections mytop-go reads, like the mysql client
// plus its own [mytop].
var optionGroups = map[string]bool{"client": true, "client-server": true, "client-mariadb": true, "mytop": true}

// maxIncludeDepth stops !include loops.
const maxIncludeDepth = 10

// optionValue is one key of an option file; hasValue is false for a bare
// "password" line, which means "prompt".
type optionValue struct {
	value    string
	hasValue bool
	file     string
}

// optionReader collects the wanted groups' options over several files; a
// later occurrence of a key wins.
type optionReader struct {
	values   map[string]optionValue
	warnings []string
	// seen are the group names met, to tell a --login-path that names none.
	seen map[string]bool
}

func newOptionReader() *optionReader {
	return &optionReader{values: map[string]optionValue{}, seen: map[string]bool{}}
}

// readFile reads one option file. A missing file is an error only when
// required (--defaults-file, --defaults-extra-file, !include).
func (r *optionReader) readFile(path string, required bool, depth int) error {
	if depth > maxIncludeDepth {
		return fmt.Errorf("option file %s: includes nested too deep", path)
	}
	f, err := os.Open(path)
	if err != nil {
		if !required && (os.IsNotExist(err) || os.IsPermission(err)) {
			return nil
		}
		return fmt.Errorf("option file: %v", err)
	}
	defer f.Close()
	sawPassword, err := r.scan(path, f, optionGroups, depth)
	if err != nil {
		return err
	}
	if sawPassword {
		r.checkPermissions(f, path)
	}
	return nil
}

// scan reads option-file text from rd, keeping the keys of the wanted groups.
// It reports whether a password with a value was among them.
func (r *optionReader) scan(path string, rd io.Reader, groups map[string]bool, depth int) (bool, error) {
	group, sawPassword := "", false
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case strings.HasPrefix(line, "!include"):
			if err := r.include(path, line, depth); err != nil {
				return false, err
			}
		case line[0] == '[':
			group = strings.ToLower(strings.TrimSpace(strings.Trim(line, "[]")))
			r.seen[group] = true
		case groups[group]:
			key, val := parseOptionLine(line)
			if key == "" {
				continue
			}
			val.file = path
			r.values[key] = val
			sawPassword = sawPassword || (key == "password" && val.value != "")
		}
	}
	if err := sc.Err(); err != nil {
		return false, fmt.Errorf("option file %s: %v", path, err)
	}
	return sawPassword, nil
}

// include handles "!include FILE" and "!includedir DIR" (its *.cnf files in
// name order).
func (r *optionReader) include(from, line string, depth int) error {
	directive, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	if arg != "" && !filepath.IsAbs(arg) {
		arg = filepath.Join(filepath.Dir(from), arg)
	}
	switch directive {
	case "!include":
		return r.readFile(arg, true, depth+1)
	case "!includedir":
		names, _ := filepath.Glob(filepath.Join(arg, "*.cnf"))
		sort.Strings(names)
		for _, name := range names {
			if err := r.readFile(name, false, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkPermissions warns about a password others on the machine can read.
func (r *optionReader) checkPermissions(f *os.File, path string) {
	st, err := f.Stat()
	if err == nil && st.Mode().Perm()&0o044 != 0 {
		r.warnings = append(r.warnings, fmt.Sprintf(
			"option file %s holds a password and is readable by group or others (chmod 600 %s)", path, path))
	}
}

// parseOptionLine splits "key = value" into a normalised key (lower case,
// dashes, no "loose-" prefix) and its unquoted, unescaped value.
func parseOptionLine(line string) (string, optionValue) {
	key, raw, hasValue := strings.Cut(line, "=")
	key = strings.ToLower(strings.TrimSpace(key))
	key = strings.ReplaceAll(key, "_", "-")
	key = strings.TrimPrefix(key, "loose-")
	if key == "" || strings.ContainsAny(key, " \t") {
		return "", optionValue{}
	}
	if !hasValue {
		return key, optionValue{}
	}
	return key, optionValue{value: optionText(strings.TrimSpace(raw)), hasValue: true}
}

// optionText reads a value: quoted with ' or " (up to the closing quote), or
// bare up to a # comment; backslash escapes as the mysql client reads them.
func optionText(raw string) string {
	if raw != "" && (raw[0] == '\'' || raw[0] == '"') {
		quote := raw[0]
		var b strings.Builder
		for i := 1; i < len(raw); i++ {
			c := raw[i]
			switch {
			case c == quote:
				return b.String()
			case c == '\\' && i+1 < len(raw):
				i++
				b.WriteByte(unescape(raw[i]))
			default:
				b.WriteByte(c)
			}
		}
		return b.String()
	}
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = strings.TrimSpace(raw[:i])
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' && i+1 < len(raw) {
			i++
			b.WriteByte(unescape(raw[i]))
			continue
		}
		b.WriteByte(raw[i])
	}
	return b.String()
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'b':
		return '\b'
	case 's':
		return ' '
	default:
		return c
	}
}
