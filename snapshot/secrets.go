package snapshot

import "strings"

// Secret is what MaskSecrets puts in place of a credential, as MySQL's own
// rewritten logs and processlist print it.
const Secret = "<secret>"

// MaskSecrets returns query with the literals that carry a credential
// replaced by <secret>: the password of IDENTIFIED BY / USING / AS,
// SET PASSWORD, CHANGE MASTER's MASTER_PASSWORD, START REPLICA's PASSWORD,
// CREATE SERVER's OPTIONS (PASSWORD …), the positional password of the
// managed services' replication procedures, a secret column (secretName)
// compared, set or inserted, and the arguments of PASSWORD(), OLD_PASSWORD()
// and the encryption functions (their keys, hex ones included). SQL inside a
// literal (EXECUTE IMMEDIATE, PREPARE … FROM) and inside an executable
// comment is masked as SQL. MariaDB shows these as typed in the processlist
// and InnoDB's status, and a monitor's screen, recording or report must not
// carry them further. Everything else is kept as it was; a literal cut off
// by a truncated query is masked to its end.
func MaskSecrets(query string) string {
	if !maySpellSecret(query) {
		return query
	}
	var m secretMasker
	return m.mask(query)
}

// MaskSecretsInText is MaskSecrets for a server's report that quotes
// statements among lines of its own, as InnoDB's status does: each line is
// scanned on its own, so an apostrophe in the report's prose ("trx's n:o")
// cannot open a literal that runs into the next statement, while a
// statement's clause cut across lines ("IDENTIFIED BY" then the password)
// is still followed from one line to the next.
func MaskSecretsInText(text string) string {
	if !maySpellSecret(text) {
		return text
	}
	var b strings.Builder
	var m secretMasker
	for line := range strings.SplitAfterSeq(text, "\n") {
		b.WriteString(m.mask(line))
	}
	return b.String()
}

// mask masks query's secrets, going on from the masker's state; it returns
// query itself when nothing was masked.
func (m *secretMasker) mask(query string) string {
	var b strings.Builder
	sc := sqlScanner{q: query}
	changed := false
	for {
		start := sc.i
		kind, text := sc.next()
		if kind == tokEnd {
			break
		}
		out := m.rewrite(kind, text)
		if out != text && !changed {
			b.Grow(len(query))
			b.WriteString(query[:start])
			changed = true
		}
		if changed {
			b.WriteString(out)
		}
	}
	if !changed {
		return query
	}
	return b.String()
}

// rewrite returns what one token becomes.
func (m *secretMasker) rewrite(kind tokKind, text string) string {
	switch {
	case kind == tokComment:
		return m.executableComment(text)
	case m.secret(kind, text):
		return Secret
	case kind == tokString:
		return maskDynamicSQL(text)
	}
	return text
}

// executableComment masks the SQL of a /*!50700 … */ or /*M!100500 … */
// comment, which the server runs as part of the statement around it, so it
// is followed with the same state; other comments are kept as they are.
func (m *secretMasker) executableComment(c string) string {
	open := 0
	switch {
	case strings.HasPrefix(c, "/*!"):
		open = 3
	case strings.HasPrefix(c, "/*M!"):
		open = 4
	default:
		return c
	}
	open = skipWhile(c, open, isDigit)
	end := len(c)
	if strings.HasSuffix(c[open:], "*/") {
		end -= 2
	}
	body := m.mask(c[open:end])
	if body == c[open:end] {
		return c
	}
	return c[:open] + body + c[end:]
}

// maskDynamicSQL masks the statement a string literal spells, as the one
// EXECUTE IMMEDIATE or PREPARE … FROM runs (directly or through a user
// variable): the literal is read as SQL, masked, and quoted again. Any
// literal that may spell a secret is read so, whatever it is for: masking a
// literal that was only prose costs a word, missing dynamic SQL a password.
func maskDynamicSQL(lit string) string {
	q := strings.IndexAny(lit, `'"`)
	if q < 0 || !maySpellSecret(lit) {
		return lit
	}
	quote := lit[q]
	end := len(lit)
	if end > q+1 && lit[end-1] == quote {
		end--
	}
	inner := unquote(lit[q+1:end], quote)
	masked := MaskSecrets(inner)
	if masked == inner {
		return lit
	}
	doubled := string([]byte{quote, quote})
	return lit[:q+1] + strings.ReplaceAll(masked, string(quote), doubled) + lit[end:]
}

// unquote undoes a literal body's doubled and backslashed quotes, so the SQL
// it holds scans as the server will run it.
func unquote(body string, quote byte) string {
	if strings.IndexByte(body, quote) < 0 && strings.IndexByte(body, '\\') < 0 {
		return body
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if (c == quote || c == '\\') && i+1 < len(body) && body[i+1] == quote {
			i++
			c = quote
		}
		b.WriteByte(c)
	}
	return b.String()
}
