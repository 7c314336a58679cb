package snapshot

import (
	"bytes"
	"strings"
)

// StatementShape is the key a statement's two written forms share: the
// server's DIGEST_TEXT ("SELECT `k` , COUNT ( * ) FROM `t` WHERE `id` IN
// (...)") and Fingerprint's ("select k, count(*) from t where id in (?+)"),
// or the raw statement. It keeps only the words, lower-cased, identifiers
// without their backquotes: literals, NULL, placeholders, punctuation and
// comments are dropped, since the two forms reduce them differently (a
// digest writes "(...)", "(?) /* , ... */", "?, ..." or "LIMIT ?, ...", and
// may keep or drop a sign, a NULL or an ORDER BY column number; a digest's
// optimizer hints are tokens, Fingerprint drops them as comments).
//
// It wrongly joins statements that differ only where it looks away: in
// their operators ("a = ?" and "a > ?"), in where their literals stand
// ("a = ? AND b" and "a AND b = ?"), in identifiers' case. That is
// acceptable for a diff, which asks whether a kind of statement is new or
// costs more per call: such statements read the same tables through the
// same columns, so joined they still tell a new table, column or clause
// apart, and at worst their figures add up.
func StatementShape(text string) string {
	sc := sqlScanner{q: text}
	out := make([]byte, 0, len(text))
	for {
		kind, tok := sc.next()
		switch kind {
		case tokEnd:
			return string(out)
		case tokQuoted:
			tok = strings.ReplaceAll(strings.TrimSuffix(tok[1:], "`"), "``", "`")
		case tokWord:
		default:
			continue
		}
		end := len(out)
		if end > 0 {
			out = append(out, ' ')
		}
		at := len(out)
		out = appendValidUTF8(out, tok, true)
		out = append(out[:at], shapeWord(out[at:])...)
		if len(out) == at {
			out = out[:end]
		}
	}
}

// shapeWord gives a lower-cased word the one spelling both forms agree on:
// a digest writes a keyword's synonyms as one of them (DISTINCT as
// DISTINCTROW, DAY as SQL_TSI_DAY, CURRENT_TIMESTAMP as NOW), and a keyword
// used as a name (a column "day") as the keyword. NULL is a literal;
// "_charset" is how a digest writes a charset introducer (_utf8mb4'…'),
// which Fingerprint folds into its literal. Empty drops the word.
func shapeWord(w []byte) []byte {
	if s, ok := shapeSynonyms[string(w)]; ok {
		return []byte(s)
	}
	if s, ok := bytes.CutPrefix(w, []byte("sql_tsi_")); ok && len(s) > 0 {
		return s
	}
	return w
}

var shapeSynonyms = map[string]string{
	"null": "", "_charset": "",
	"distinctrow": "distinct",
	"character":   "char",
	"integer":     "int",
	"rlike":       "regexp",
	"substr":      "substring", "mid": "substring",
	"database": "schema", "databases": "schemas",
	"current_timestamp": "now", "localtime": "now", "localtimestamp": "now",
	"current_date": "curdate",
	"current_time": "curtime",
}
