package snapshot

import "strings"

// secretMasker follows one statement's tokens and says which literal is a
// credential.
type secretMasker struct {
	prev string // the last word, upper case
	// identified: IDENTIFIED was seen in this statement, so a literal after
	// BY, USING or AS is a password or its hash.
	identified bool
	want       want
	// forUser: SET PASSWORD FOR user: the secret follows the "=".
	forUser bool
	// call: the last word names a function whose arguments are secrets.
	call call
	// in is the call being read, while depth counts its parentheses.
	in    call
	depth int
	arg   int // the argument at depth 1 being read, from 0
	// rows follows INSERT and REPLACE, whose secret columns are known by
	// their place in the column list.
	rows insertRows
}

// want says whether the next literal is a secret.
type want uint8

const (
	wantNone want = iota
	// wantKey: a secret's name was the last word; a literal after it, an
	// operator (=, <>, LIKE, IN) or not, is the secret.
	wantKey
	// wantValue: the operator after a secret's name, or IDENTIFIED BY: the
	// value follows, as a literal, BINARY 'x', a list ('x', 'y') or a
	// function of it, SHA2('x', 256).
	wantValue
)

// call is a function or procedure whose arguments carry secrets.
type call struct {
	kind callKind
	at   int // callPositional: the argument that is the password
}

type callKind uint8

const (
	callNone callKind = iota
	// callKeys: every literal argument, numbers included, is a secret (the
	// encryption functions' keys, PASSWORD()).
	callKeys
	// callValue: a function applied to a secret, SHA2('pw', 256); its string
	// literals are the secret, its numbers are not.
	callValue
	// callPositional: a procedure taking the password at call.at.
	callPositional
)

// textLiteral reports whether a literal may spell a password or its hash:
// a string or a hex number (0x6b6579), not a count.
func textLiteral(kind tokKind, text string) bool {
	return kind == tokString || len(text) > 2 && text[0] == '0' && (text[1]|0x20 == 'x' || text[1]|0x20 == 'b')
}

// valueWords may come between a secret's name and its literal.
var valueWords = map[string]bool{"LIKE": true, "NOT": true, "IN": true, "BINARY": true, "REGEXP": true, "RLIKE": true}

func (m *secretMasker) secret(kind tokKind, text string) bool {
	if kind == tokSpace || kind == tokComment {
		return false
	}
	inRow := m.rows.secret(kind, text)
	return m.clause(kind, text) || inRow
}

func (m *secretMasker) clause(kind tokKind, text string) bool {
	switch {
	case m.depth > 0:
		return m.inCall(kind, text)
	case kind == tokString || kind == tokNumber:
		s := m.want != wantNone && textLiteral(kind, text)
		m.want, m.call = wantNone, call{}
		return s
	case kind == tokWord:
		m.word(strings.ToUpper(text))
		return false
	case kind == tokQuoted:
		m.word(strings.ToUpper(strings.Trim(text, "`")))
		return false
	}
	m.punct(text)
	return false
}

// inCall reads a token inside a call that carries secrets.
func (m *secretMasker) inCall(kind tokKind, text string) bool {
	switch {
	case kind == tokString || kind == tokNumber:
		if m.in.kind == callPositional {
			return m.arg == m.in.at
		}
		return m.in.kind == callKeys || textLiteral(kind, text)
	case kind != tokPunct:
		return false
	}
	switch text {
	case "(":
		m.depth++
	case ")":
		m.depth--
	case ",":
		if m.depth == 1 {
			m.arg++
		}
	}
	return false
}

func (m *secretMasker) punct(text string) {
	c := m.call
	m.call = call{}
	switch text {
	case "(":
		switch {
		case c.kind != callNone:
			m.in, m.depth, m.arg = c, 1, 0
		case m.want == wantValue: // password IN ('a', 'b'), = ('a')
			m.in, m.depth, m.arg = call{kind: callValue}, 1, 0
		}
		m.want = wantNone
	case "=", ":":
		if m.forUser || m.want != wantNone {
			m.forUser, m.want = false, wantValue
		}
	case "<", ">", "!": // password <> '…' and the like keep the secret next
	case ";":
		*m = secretMasker{}
	default:
		if !m.forUser {
			m.want = wantNone
		}
	}
}

func (m *secretMasker) word(w string) {
	prev, was := m.prev, m.want
	m.prev = w
	m.call = call{}
	if secretFuncs[w] {
		m.call = call{kind: callKeys}
	} else if at := passwordArg(w); at >= 0 {
		m.call = call{kind: callPositional, at: at}
	}
	switch {
	case w == "IDENTIFIED":
		m.identified, m.want = true, wantNone
	case w == "BY" || w == "USING" || w == "AS":
		m.want = wantNone
		if m.identified {
			m.want = wantValue
		}
	case w == "FOR" && prev == "PASSWORD":
		m.forUser, m.want = true, wantNone
	case isSecretName(w):
		m.want = wantKey
	case was != wantNone && valueWords[w]:
		m.want = wantValue
	case was == wantValue && m.call.kind == callNone:
		// A function of the value, SHA2('pw', 256), if "(" follows.
		m.call, m.want = call{kind: callValue}, wantNone
	case !m.forUser:
		m.want = wantNone
	}
}
