package snapshot

import "strings"

// Secret is what MaskSecrets puts in place of a credential, as MySQL's own
// rewritten logs and processlist print it.
const Secret = "<secret>"

// MaskSecrets returns query with the literals that carry a credential
// replaced by <secret>: the password of IDENTIFIED BY / USING / AS,
// SET PASSWORD, CHANGE MASTER's MASTER_PASSWORD, START REPLICA's PASSWORD,
// CREATE SERVER's OPTIONS (PASSWORD …), a column called password compared or
// set, and the arguments of PASSWORD(), OLD_PASSWORD() and the encryption
// functions (their keys). MariaDB shows these as typed in the processlist
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
		kind, text := sc.next()
		if kind == tokEnd {
			break
		}
		if m.secret(kind, text) {
			if !changed {
				b.Grow(len(query))
				b.WriteString(query[:sc.i-len(text)])
				changed = true
			}
			b.WriteString(Secret)
			continue
		}
		if changed {
			b.WriteString(text)
		}
	}
	if !changed {
		return query
	}
	return b.String()
}

// secretMasker follows one statement's tokens and says which string literal
// is a credential.
type secretMasker struct {
	prev string // the last word, upper case
	// identified: IDENTIFIED was seen in this statement, so a literal after
	// BY, USING or AS is a password or its hash.
	identified bool
	// next: the next string literal (an "=" may come first) is a secret.
	next bool
	// forUser: SET PASSWORD FOR user: the secret follows the "=".
	forUser bool
	// call: the last word names a function whose arguments are secrets;
	// depth counts the parentheses while inside its call.
	call  bool
	depth int
}

// secretFuncs take a password or a key among their arguments.
var secretFuncs = map[string]bool{
	"PASSWORD": true, "OLD_PASSWORD": true, "ENCRYPT": true, "AES_ENCRYPT": true, "AES_DECRYPT": true,
	"DES_ENCRYPT": true, "DES_DECRYPT": true, "ENCODE": true, "DECODE": true,
}

// secretKeys are followed (after an optional "=") by a secret literal.
var secretKeys = map[string]bool{
	"PASSWORD": true, "MASTER_PASSWORD": true, "SOURCE_PASSWORD": true,
}

func (m *secretMasker) secret(kind tokKind, text string) bool {
	switch {
	case kind == tokSpace || kind == tokComment:
		return false
	case m.depth > 0:
		m.inCall(text)
		return kind == tokString
	case kind == tokString:
		s := m.next
		m.next, m.call = false, false
		return s
	case kind == tokWord:
		m.word(strings.ToUpper(text))
		return false
	}
	m.punct(text)
	return false
}

func (m *secretMasker) inCall(text string) {
	switch text {
	case "(":
		m.depth++
	case ")":
		m.depth--
	}
}

func (m *secretMasker) punct(text string) {
	call := m.call
	m.call = false
	switch text {
	case "(":
		if call {
			m.depth, m.next = 1, false
		}
	case "=":
		if m.forUser {
			m.forUser, m.next = false, true
		}
	case "<", ">", "!": // password <> '…' and the like keep the secret next
	case ";":
		*m = secretMasker{}
	default:
		if !m.forUser {
			m.next = false
		}
	}
}

func (m *secretMasker) word(w string) {
	prev := m.prev
	m.prev = w
	m.call = secretFuncs[w]
	switch {
	case w == "IDENTIFIED":
		m.identified, m.next = true, false
	case w == "BY" || w == "USING" || w == "AS":
		m.next = m.identified
	case w == "FOR" && prev == "PASSWORD":
		m.forUser, m.next = true, false
	case secretKeys[w]:
		m.next = true
	case w == "LIKE" && secretKeys[prev]:
	case !m.forUser:
		m.next = false
	}
}

// maySpellSecret is a quick test, without allocating, for the words every
// masked literal follows; most statements have none of them.
func maySpellSecret(q string) bool {
	for i := 0; i < len(q); i++ {
		switch q[i] | 0x20 {
		case 'p':
			if hasPrefixFold(q[i:], "password") {
				return true
			}
		case 'i':
			if hasPrefixFold(q[i:], "identified") {
				return true
			}
		case 'c':
			if hasPrefixFold(q[i:], "crypt") {
				return true
			}
		case 'e', 'd':
			if hasPrefixFold(q[i+1:], "code") {
				return true
			}
		}
	}
	return false
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if s[i]|0x20 != prefix[i] {
			return false
		}
	}
	return true
}
