package snapshot

import "strings"

// tokKind classifies a piece of SQL text for Fingerprint and Redact.
type tokKind uint8

const (
	tokEnd     tokKind = iota
	tokSpace           // run of whitespace
	tokComment         // /* */, -- to end of line, # to end of line
	tokString          // '…', "…", X'…', B'…', N'…'
	tokNumber          // 12, 1.5e-3, .5, 0x1F, 0b101
	tokWord            // keyword or unquoted identifier
	tokQuoted          // `identifier`
	tokPunct           // any other single byte
)

// sqlScanner splits SQL into tokens in one forward pass. It never fails:
// unterminated strings and comments run to the end of the text.
type sqlScanner struct {
	q string
	i int
	// inComment treats comment markers as plain punctuation; used to redact
	// a comment's body (MySQL comments do not nest).
	inComment bool
}

// next returns the kind and text of the token at the scanner's position.
func (sc *sqlScanner) next() (tokKind, string) {
	if sc.i >= len(sc.q) {
		return tokEnd, ""
	}
	start := sc.i
	kind := sc.scan()
	return kind, sc.q[start:sc.i]
}

func (sc *sqlScanner) scan() tokKind {
	q, i := sc.q, sc.i
	c := q[i]
	switch {
	case isSpace(c):
		sc.i = skipWhile(q, i, isSpace)
		return tokSpace
	case sc.inComment:
		return sc.scanCode()
	case c == '#', c == '-' && strings.HasPrefix(q[i:], "--") && (i+2 == len(q) || isSpace(q[i+2])):
		sc.i = lineEnd(q, i)
		return tokComment
	case c == '/' && strings.HasPrefix(q[i:], "/*"):
		sc.i = commentEnd(q, i+2)
		return tokComment
	}
	return sc.scanCode()
}

// scanCode reads a token other than whitespace or a comment.
func (sc *sqlScanner) scanCode() tokKind {
	q, i := sc.q, sc.i
	c := q[i]
	switch {
	case c == '\'' || c == '"':
		sc.i = quotedEnd(q, i+1, c, true)
		return tokString
	case c == '<' && strings.HasPrefix(q[i:], Secret):
		// A literal MaskSecrets took out: still a literal, so the masked
		// statement fingerprints as the one the server digested.
		sc.i = i + len(Secret)
		return tokString
	case c == '`':
		sc.i = quotedEnd(q, i+1, '`', false)
		return tokQuoted
	case isDigit(c) || c == '.' && i+1 < len(q) && isDigit(q[i+1]) && !afterWord(q, i):
		end := numberEnd(q, i)
		if end == len(q) || !IsWordByte(q[end]) {
			sc.i = end
			return tokNumber
		}
		if c == '.' { // ".5abc": a dot, then an identifier
			sc.i = i + 1
			return tokPunct
		}
		if d := skipWhile(q, i, isDigit); IsWordByte(q[d]) { // "1abc", "0x1g" are identifiers
			sc.i = skipWhile(q, i, IsWordByte)
			return tokWord
		}
		// "0.a", "1.5e3x": a number, then a word. Splitting at the dot instead
		// would turn "0" into a word here but into "?" after a fingerprint's
		// "?", so fingerprints would not be stable.
		sc.i = end
		return tokNumber
	case IsWordByte(c):
		return sc.scanWord()
	}
	sc.i = i + 1
	return tokPunct
}

// scanWord reads an identifier or keyword, or a prefixed string literal:
// X'0A', B'01', N'text', _utf8mb4'text'.
func (sc *sqlScanner) scanWord() tokKind {
	end := skipWhile(sc.q, sc.i, IsWordByte)
	if end < len(sc.q) && sc.q[end] == '\'' && isStringPrefix(sc.q[sc.i:end]) {
		sc.i = quotedEnd(sc.q, end+1, '\'', true)
		return tokString
	}
	sc.i = end
	return tokWord
}

func isStringPrefix(w string) bool {
	switch w {
	case "x", "X", "b", "B", "n", "N":
		return true
	}
	return w[0] == '_'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// IsWordByte reports whether c can be part of an unquoted identifier; bytes
// of multi-byte (or invalid) UTF-8 count, as MySQL allows them.
func IsWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '$' || c >= 0x80
}

func skipWhile(q string, i int, ok func(byte) bool) int {
	for i < len(q) && ok(q[i]) {
		i++
	}
	return i
}

// afterWord reports whether q[i] directly follows an identifier, as in "t.5x"
// where ".5" is not a number.
func afterWord(q string, i int) bool {
	return i > 0 && (IsWordByte(q[i-1]) || q[i-1] == '`')
}

func lineEnd(q string, i int) int {
	if n := strings.IndexByte(q[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(q)
}

func commentEnd(q string, i int) int {
	if n := strings.Index(q[i:], "*/"); n >= 0 {
		return i + n + 2
	}
	return len(q)
}

// quotedEnd returns the index after the closing quote of a quoted run that
// starts at i (just past the opening quote). A doubled quote stands for
// itself; backslash escapes apply to strings only.
func quotedEnd(q string, i int, quote byte, backslash bool) int {
	for i < len(q) {
		switch c := q[i]; {
		case c == '\\' && backslash:
			i += 2
		case c == quote && i+1 < len(q) && q[i+1] == quote:
			i += 2
		case c == quote:
			return i + 1
		default:
			i++
		}
	}
	return len(q)
}

// numberEnd returns the end of the numeric literal starting at i.
func numberEnd(q string, i int) int {
	if strings.HasPrefix(q[i:], "0x") || strings.HasPrefix(q[i:], "0X") {
		return skipWhile(q, i+2, isHexDigit)
	}
	if (strings.HasPrefix(q[i:], "0b") || strings.HasPrefix(q[i:], "0B")) && i+2 < len(q) && (q[i+2] == '0' || q[i+2] == '1') {
		return skipWhile(q, i+2, func(c byte) bool { return c == '0' || c == '1' })
	}
	i = skipWhile(q, i, isDigit)
	if i < len(q) && q[i] == '.' {
		i = skipWhile(q, i+1, isDigit)
	}
	if i < len(q) && (q[i] == 'e' || q[i] == 'E') {
		j := i + 1
		if j < len(q) && (q[j] == '+' || q[j] == '-') {
			j++
		}
		if j < len(q) && isDigit(q[j]) {
			i = skipWhile(q, j, isDigit)
		}
	}
	return i
}

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
