package report

import (
	"encoding/json"
	"io"
)

// WriteJSON prints the report as one indented JSON object.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
