package snapshot

import "strings"

// Redact replaces every string, number and hex literal in query with ?,
// leaving all other text (spacing, case, identifiers, signs) untouched.
// Comments are kept, with literals inside them redacted too, since
// applications put user data in comments as well. Invalid UTF-8 outside
// literals is kept; inside a literal it is gone with the literal.
func Redact(query string) string {
	var b strings.Builder
	b.Grow(len(query))
	redactInto(&b, sqlScanner{q: query})
	return b.String()
}

func redactInto(b *strings.Builder, sc sqlScanner) {
	for {
		kind, text := sc.next()
		switch kind {
		case tokEnd:
			return
		case tokString, tokNumber:
			b.WriteByte('?')
		case tokComment:
			redactComment(b, text)
		default:
			b.WriteString(text)
		}
	}
}

// redactComment redacts the body of a comment, keeping its delimiters. A
// quote left open inside the body cannot swallow the closing "*/".
func redactComment(b *strings.Builder, c string) {
	open, closing := "", ""
	switch {
	case strings.HasPrefix(c, "/*"):
		open = "/*"
		if strings.HasSuffix(c, "*/") && len(c) >= 4 {
			closing = "*/"
		}
	case strings.HasPrefix(c, "#"):
		open = "#"
	default:
		open = "--"
	}
	b.WriteString(open)
	redactInto(b, sqlScanner{q: c[len(open) : len(c)-len(closing)], inComment: true})
	b.WriteString(closing)
}

// StatementVerb returns the first keyword of a statement in upper case
// ("UPDATE"), skipping whitespace, comments and opening parentheses. The
// statement inside an executable comment (/*!50000 SELECT …*/) counts. It
// returns "" when the text has no keyword.
func StatementVerb(q string) string {
	sc := sqlScanner{q: q}
	for {
		kind, text := sc.next()
		switch {
		case kind == tokEnd:
			return ""
		case kind == tokWord:
			return strings.ToUpper(text)
		case kind == tokComment && (strings.HasPrefix(text, "/*!") || strings.HasPrefix(text, "/*M!")):
			sc = sqlScanner{q: executableBody(text)}
		case kind == tokSpace, kind == tokComment, kind == tokPunct && text == "(":
		default:
			return ""
		}
	}
}

// executableBody returns the statement text of "/*!50000 SELECT 1*/".
func executableBody(c string) string {
	body := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(c, "/*"), "M"), "*/")
	body = strings.TrimPrefix(body, "!")
	return strings.TrimLeft(body, "0123456789")
}
