package snapshot

import "strings"

// quotingMarkers introduce the statement an error message quotes: the
// replication errors' "Query: '…'" (the whole statement) and the syntax
// errors' "near '…'" (the statement from where the parser stopped, which
// may be inside a literal).
var quotingMarkers = []string{"Query: '", "near '"}

// closesQuote reports whether a quote followed by rest ends a message's
// quotation: the message ends there, or goes on as a syntax error does
// ("' at line 1"). Otherwise the message was cut short inside the
// statement, and the quote is the statement's own.
func closesQuote(rest string) bool {
	return strings.TrimSpace(rest) == "'" || strings.HasPrefix(rest, "' at line ")
}

// quotedStatement splits an error message around the statement it quotes.
// The quoted statement's own quotes are not doubled, so it runs to the last
// quote of the message, or to its end when the message was cut short.
func quotedStatement(msg string) (head, stmt, tail string, whole, ok bool) {
	for m, marker := range quotingMarkers {
		i := strings.Index(msg, marker)
		if i < 0 {
			continue
		}
		start := i + len(marker)
		end := len(msg)
		if j := strings.LastIndexByte(msg[start:], '\''); j >= 0 && closesQuote(msg[start+j:]) {
			end = start + j
		}
		return msg[:start], msg[start:end], msg[end:], m == 0, true
	}
	return msg, "", "", false, false
}

// MaskSecretsInError is MaskSecrets for an error message that quotes a
// statement: Last_SQL_Error of a replica stopped on a replicated
// CREATE USER … IDENTIFIED BY quotes its password. The quoted statement is
// masked as a statement; a message with none is masked line by line.
func MaskSecretsInError(msg string) string {
	if !maySpellSecret(msg) {
		return msg
	}
	head, stmt, tail, _, ok := quotedStatement(msg)
	if !ok {
		return MaskSecretsInText(msg)
	}
	return MaskSecretsInText(head) + MaskSecrets(stmt) + tail
}

// RedactError is Redact for an error message that quotes a statement: the
// message's own quoted names and the quoted statement are redacted apart,
// since the statement's quotes, not doubled, would otherwise pair with the
// message's and leave its literals outside any. A statement quoted from
// the middle (near '…') may start inside a literal, so it goes whole.
func RedactError(msg string) string {
	head, stmt, tail, whole, ok := quotedStatement(msg)
	if !ok {
		return Redact(msg)
	}
	if !whole {
		stmt = "?"
	}
	return Redact(strings.TrimSuffix(head, "'")) + "'" + Redact(stmt) + tail
}
