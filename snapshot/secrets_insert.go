package snapshot

import "strings"

// insertRows follows INSERT and REPLACE with a column list, so that the
// values of a secret column (INSERT INTO users (login, password) VALUES
// ('bob', 'pw'), ('amy', 'pw2')) are masked by their place in each row.
// Without a column list the places of the secret columns are unknown and
// nothing is masked by place.
type insertRows struct {
	state insertState
	// secretAt marks the secret columns by place; column counts the list's
	// columns read so far.
	secretAt []bool
	column   int
	// depth counts the parentheses open in the VALUES rows; arg is the
	// place in the row being read.
	depth, arg int
}

type insertState uint8

const (
	insertNone    insertState = iota
	insertTable               // INSERT or REPLACE read, the column list may follow
	insertColumns             // inside the column list
	insertListed              // after the column list, before VALUES
	insertValues              // inside VALUES
)

// secret reads one token (no space or comment) and says whether it is a
// literal in a secret column's place.
func (r *insertRows) secret(kind tokKind, text string) bool {
	if kind == tokPunct && text == ";" {
		*r = insertRows{}
		return false
	}
	switch r.state {
	case insertNone:
		if kind == tokWord && (strings.EqualFold(text, "INSERT") || strings.EqualFold(text, "REPLACE")) {
			r.state = insertTable
		}
	case insertTable, insertListed:
		r.beforeValues(kind, text)
	case insertColumns:
		r.columnList(kind, text)
	case insertValues:
		return r.values(kind, text)
	}
	return false
}

func (r *insertRows) beforeValues(kind tokKind, text string) {
	switch {
	case kind == tokPunct && text == "(":
		r.state, r.secretAt, r.column = insertColumns, r.secretAt[:0], 0
		r.secretAt = append(r.secretAt, false)
	case kind == tokWord && (strings.EqualFold(text, "VALUES") || strings.EqualFold(text, "VALUE")):
		if r.state == insertListed {
			r.state, r.depth = insertValues, 0
		} else {
			r.state = insertNone
		}
	case kind == tokWord && r.state == insertListed:
		r.state = insertNone // SELECT, SET, a table function: not rows
	}
}

func (r *insertRows) columnList(kind tokKind, text string) {
	switch {
	case kind == tokWord || kind == tokQuoted:
		if isSecretName(text) {
			r.secretAt[r.column] = true
		}
	case text == ",":
		r.column++
		r.secretAt = append(r.secretAt, false)
	case text == ")":
		r.state = insertListed
	case text == "(" || kind == tokString:
		r.state = insertNone // not a column list: REPLACE('a', …) the function
	}
}

func (r *insertRows) values(kind tokKind, text string) bool {
	switch {
	case kind == tokString || kind == tokNumber:
		return r.depth > 0 && r.arg < len(r.secretAt) && r.secretAt[r.arg] && textLiteral(kind, text)
	case kind == tokPunct:
		switch text {
		case "(":
			if r.depth == 0 {
				r.arg = 0
			}
			r.depth++
		case ")":
			r.depth = max(r.depth-1, 0)
		case ",":
			if r.depth == 1 {
				r.arg++
			}
		}
	case r.depth == 0: // ON DUPLICATE KEY UPDATE, AS alias: the rows ended
		r.state = insertNone
	}
	return false
}
