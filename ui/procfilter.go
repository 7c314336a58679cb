package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// procFilter is a parsed "/" filter: terms like `user:app state:lock text`,
// all of which must match. A bare word matches the query text. Matching is
// case-insensitive substring, except id which is exact.
type procFilter struct {
	raw   string
	terms []filterTerm
}

type filterTerm struct {
	field string
	value string // lowered ASCII-only; empty for id
	id    int64  // the thread an id: term names
}

var filterFields = map[string]bool{"user": true, "db": true, "host": true, "state": true, "cmd": true, "id": true, "text": true}

func parseFilter(s string) (procFilter, error) {
	f := procFilter{raw: strings.TrimSpace(s)}
	for _, word := range strings.Fields(s) {
		field, value, found := strings.Cut(word, ":")
		if !found {
			field, value = "text", word
		}
		field = strings.ToLower(field)
		if !filterFields[field] {
			return procFilter{}, fmt.Errorf("unknown filter field %q (use user: db: host: state: cmd: id: or plain text)", field)
		}
		if field == "id" {
			// A number, so id:+42 and id:042 mean thread 42.
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return procFilter{}, fmt.Errorf("id:%s is not a thread id", value)
			}
			f.terms = append(f.terms, filterTerm{field: field, id: n})
			continue
		}
		// Lowered as containsFold folds: only ASCII, so É and bytes that are
		// not UTF-8 still match themselves.
		f.terms = append(f.terms, filterTerm{field: field, value: snapshot.LowerASCII(value)})
	}
	return f, nil
}

func (f procFilter) empty() bool { return len(f.terms) == 0 }

func (f procFilter) match(p *snapshot.Process) bool {
	for _, t := range f.terms {
		if !t.match(p) {
			return false
		}
	}
	return true
}

func (t filterTerm) match(p *snapshot.Process) bool {
	switch t.field {
	case "user":
		return containsFold(p.User, t.value)
	case "db":
		return containsFold(p.DB, t.value)
	case "host":
		return containsFold(p.Host, t.value)
	case "state":
		return containsFold(p.State, t.value)
	case "cmd":
		return containsFold(p.Command, t.value)
	case "id":
		return p.ID == t.id
	default:
		return containsFold(p.Info, t.value)
	}
}

// containsFold reports whether lowerNeedle occurs in s ignoring ASCII case,
// without allocating a lowered copy of every query each second.
func containsFold(s, lowerNeedle string) bool {
	n := len(lowerNeedle)
	if n == 0 {
		return true
	}
	for i := 0; i+n <= len(s); i++ {
		if equalFoldASCII(s[i:i+n], lowerNeedle) {
			return true
		}
	}
	return false
}

func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(s); i++ {
		if lowerByte(s[i]) != lower[i] {
			return false
		}
	}
	return true
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
