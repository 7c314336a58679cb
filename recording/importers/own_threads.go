package importers

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// captureStatements are what the capturing tools themselves run; their rows are
// the capture watching itself, which live collection hides too.
var captureStatements = map[string]bool{
	"show full processlist":          true, // shell loops, pt-stalk
	"show processlist":               true,
	"show status":                    true, // shell loops
	"show /*!50002 global */ status": true, // mysqladmin extended-status, pt-stalk
}

// isCaptureThread reports whether a row is the capture's own statement.
func isCaptureThread(p snapshot.Process) bool {
	return p.Command == "Query" && captureStatements[strings.ToLower(strings.TrimSpace(p.Info))]
}
