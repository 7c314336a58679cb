package recording

import "regexp"

// TEMPORARY until snapshot.Redact lands: replaced by `var redactQuery = snapshot.Redact`.
var literalRe = regexp.MustCompile(`'(?:[^'\\]|\\.|'')*'?|"(?:[^"\\]|\\.|"")*"?|\b0x[0-9a-fA-F]+\b|\b\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\b`)

func redactQuery(q string) string { return literalRe.ReplaceAllString(q, "?") }
