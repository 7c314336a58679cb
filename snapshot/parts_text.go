package snapshot

import (
	"fmt"
	"reflect"
	"strings"
)

// TextField is a place in a Snapshot that holds statement text: a path of
// Go field names from the Snapshot, through pointers, slices and maps of
// structs ("InnoDB.Transactions.Trx.Query"), or a map[string]string field
// and one of its keys ("ReplicaChannels[Last_SQL_Error]").
type TextField struct {
	Path string
	Kind TextKind
}

// TextKind says how a text field quotes statements, which decides how it is
// masked and redacted.
type TextKind uint8

const (
	// TextStatement is one statement (or its start, truncated).
	TextStatement TextKind = iota
	// TextLines is a report quoting statements among lines of its own
	// (InnoDB's latest deadlock).
	TextLines
	// TextReport is a server's whole report (SHOW ENGINE INNODB STATUS as
	// printed): masked line by line, and dropped by redaction, as it quotes
	// statements in places no parser can promise to find.
	TextReport
	// TextError is an error message quoting a statement ("… Query: '…'").
	TextError
)

// Mask masks the credentials in text of this kind.
func (k TextKind) Mask(text string) string {
	switch k {
	case TextLines, TextReport:
		return MaskSecretsInText(text)
	case TextError:
		return MaskSecretsInError(text)
	}
	return MaskSecrets(text)
}

// Redact replaces every literal in text of this kind (Redact).
func (k TextKind) Redact(text string) string {
	switch k {
	case TextReport:
		return ""
	case TextError:
		return RedactError(text)
	}
	return Redact(text)
}

// Quotable reports whether findings may quote text of this kind whole or
// in part: one statement, or an error quoting one.
func (k TextKind) Quotable() bool { return k == TextStatement || k == TextError }

// textStep is one step of a compiled TextField path.
type textStep struct {
	field int    // the struct field's index
	key   string // set on the last step of a map[string]string path
}

type compiledText struct {
	TextField
	top   string // the Snapshot field, by name
	steps []textStep
}

// texts is every Part's text fields, compiled once.
var texts = compileTexts()

func compileTexts() []compiledText {
	var out []compiledText
	for _, p := range Parts {
		for _, f := range p.Text {
			steps, err := compileTextPath(reflect.TypeFor[Snapshot](), f.Path)
			if err != nil {
				panic(fmt.Sprintf("snapshot.Parts: %s: %v", p.Collector, err))
			}
			top, _, _ := strings.Cut(strings.SplitN(f.Path, ".", 2)[0], "[")
			out = append(out, compiledText{TextField: f, top: top, steps: steps})
		}
	}
	return out
}

// compileTextPath resolves a path's names to field indexes, checking that it
// ends in a string.
func compileTextPath(t reflect.Type, path string) ([]textStep, error) {
	var steps []textStep
	for name := range strings.SplitSeq(path, ".") {
		name, key, keyed := strings.Cut(name, "[")
		if t = elemOf(t); t.Kind() != reflect.Struct {
			return nil, fmt.Errorf("%s: %s is not a struct", path, t)
		}
		f, ok := t.FieldByName(name)
		if !ok || len(f.Index) != 1 {
			return nil, fmt.Errorf("%s: no field %s in %s", path, name, t)
		}
		steps = append(steps, textStep{field: f.Index[0]})
		t = f.Type
		if keyed {
			if t.Kind() != reflect.Map && elemOf(t).Kind() != reflect.Map {
				return nil, fmt.Errorf("%s: %s is not a map", path, name)
			}
			steps = append(steps, textStep{field: -1, key: strings.TrimSuffix(key, "]")})
			t = elemOf(t).Elem()
		}
	}
	if elemOf(t).Kind() != reflect.String {
		return nil, fmt.Errorf("%s: ends in %s, not a string", path, t)
	}
	return steps, nil
}

// elemOf goes through pointers, slices and maps to what they hold, keeping
// a map[string]string (whose key a path names).
func elemOf(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice:
			t = t.Elem()
		case reflect.Map:
			if t.Elem().Kind() == reflect.String {
				return t
			}
			t = t.Elem()
		default:
			return t
		}
	}
}
