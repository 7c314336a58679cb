package snapshot

import (
	"strings"
	"unicode/utf8"
)

// Fingerprint normalises a statement so that statements differing only in
// their values group together: comments are dropped, whitespace runs become
// one space, words are lower-cased (`quoted` identifiers are kept as is),
// string, number and hex literals become ?, and IN (…) and VALUES (…), (…)
// lists of literals become "in (?+)" and "values (?+)". The result is valid
// UTF-8 (invalid bytes become U+FFFD, as encoding/json would make them), so a
// fingerprint survives a recording round trip. Cost is linear in the input.
func Fingerprint(query string) string {
	fp := fingerprinter{sc: sqlScanner{q: query}, out: make([]byte, 0, min(len(query), 64<<10))}
	fp.run()
	return strings.TrimRight(string(fp.out), " ;")
}

type fingerprinter struct {
	sc       sqlScanner
	out      []byte
	space    bool // whitespace or a comment was skipped since the last token
	signable bool // a + or - written now would be a sign, not an operator
	signAt   int  // index in out of a sign written last, or -1
}

func (fp *fingerprinter) run() {
	fp.signable, fp.signAt = true, -1
	for {
		kind, text := fp.sc.next()
		switch kind {
		case tokEnd:
			return
		case tokSpace, tokComment:
			fp.space = len(fp.out) > 0
		case tokString, tokNumber:
			fp.literal()
		case tokWord:
			fp.word(text)
		case tokQuoted:
			fp.token(text, false)
		case tokPunct:
			fp.punct(text)
		}
	}
}

// token writes text, preceded by one space when the source had any.
func (fp *fingerprinter) token(text string, lower bool) {
	if fp.space {
		fp.out = append(fp.out, ' ')
		fp.space = false
	}
	fp.out = appendValidUTF8(fp.out, text, lower)
	fp.signable, fp.signAt = false, -1
}

func (fp *fingerprinter) punct(text string) {
	sign := fp.signable && (text == "-" || text == "+")
	fp.token(text, false)
	if sign {
		fp.signAt = len(fp.out) - 1
	}
	fp.signable = strings.Contains("(,=<>+-*/%!~^&|", text)
}

// literal writes "?", dropping a sign written just before it ("= -5").
func (fp *fingerprinter) literal() {
	if fp.signAt >= 0 {
		fp.out = fp.out[:fp.signAt]
		spaced := fp.space
		if n := len(fp.out); n > 0 && fp.out[n-1] == ' ' {
			fp.out, spaced = fp.out[:n-1], true
		}
		fp.space = spaced && len(fp.out) > 0
	}
	fp.token("?", false)
}

// word writes a keyword or identifier in lower case, folding a following
// list of literals after IN and VALUES.
func (fp *fingerprinter) word(text string) {
	fp.token(text, true)
	switch {
	case strings.EqualFold(text, "in"):
		if end, ok := literalList(fp.sc.q, fp.sc.i, 0); ok {
			fp.folded(end)
		}
	case strings.EqualFold(text, "values"), strings.EqualFold(text, "value"):
		if end, ok := literalRows(fp.sc.q, fp.sc.i); ok {
			fp.folded(end)
		}
	}
}

func (fp *fingerprinter) folded(end int) {
	fp.out = append(fp.out, " (?+)"...)
	fp.sc.i = end
	fp.space = false
}

// maxListNesting bounds how deep literalList looks into "((1,2),(3,4))".
const maxListNesting = 2

// literalList reports whether q[i:] starts (after spaces and comments) with a
// parenthesised, comma-separated list of literals, possibly of such lists,
// and where it ends.
func literalList(q string, i, depth int) (int, bool) {
	sc := sqlScanner{q: q, i: i}
	if kind, text := sc.nextSignificant(); kind != tokPunct || text != "(" {
		return 0, false
	}
	for {
		kind, text := sc.nextSignificant()
		if kind == tokPunct && (text == "-" || text == "+") {
			kind, _ = sc.nextSignificant()
		}
		switch {
		case kind == tokString || kind == tokNumber:
		case kind == tokWord && strings.EqualFold(text, "null"):
		case kind == tokPunct && text == "(" && depth < maxListNesting:
			end, ok := literalList(q, sc.i-1, depth+1)
			if !ok {
				return 0, false
			}
			sc.i = end
		default:
			return 0, false
		}
		kind, text = sc.nextSignificant()
		if kind != tokPunct || (text != "," && text != ")") {
			return 0, false
		}
		if text == ")" {
			return sc.i, true
		}
	}
}

// literalRows matches "(…), (…), …" after VALUES.
func literalRows(q string, i int) (int, bool) {
	end, ok := literalList(q, i, maxListNesting)
	for ok {
		sc := sqlScanner{q: q, i: end}
		if kind, text := sc.nextSignificant(); kind != tokPunct || text != "," {
			return end, true
		}
		next, more := literalList(q, sc.i, maxListNesting)
		if !more {
			return end, true
		}
		end = next
	}
	return 0, false
}

// nextSignificant skips whitespace and comments.
func (sc *sqlScanner) nextSignificant() (tokKind, string) {
	for {
		kind, text := sc.next()
		if kind != tokSpace && kind != tokComment {
			return kind, text
		}
	}
}

// appendValidUTF8 appends text, optionally lower-casing ASCII letters, with
// each byte of invalid UTF-8 replaced by U+FFFD.
func appendValidUTF8(out []byte, text string, lower bool) []byte {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if lower && c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, text[i:i+size]...)
		}
		i += size
	}
	return out
}
