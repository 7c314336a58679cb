package report

import (
	"encoding/json"
	"io"
)

// writeJSON prints the report as one indented JSON object.
func writeJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
