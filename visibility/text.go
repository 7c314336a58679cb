package visibility

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints the report for a terminal or a ticket.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s (%s)\n", r.Account.User, r.Account.Version, r.Server)
	if r.Account.Managed != "" {
		fmt.Fprintf(&b, "managed server: %s\n", r.Account.Managed)
	}
	fmt.Fprintf(&b, "sees: %s\n", strings.Join(r.Sees, ", "))
	if len(r.Blind) == 0 {
		b.WriteString("blind spots: none\n")
	} else {
		fmt.Fprintf(&b, "blind spots: %d; rules that cannot run: %d\n", len(r.Blind), len(r.RulesBlind))
	}
	for _, s := range r.Blind {
		fmt.Fprintf(&b, "\n%s: %s\n", s.Source, s.Why)
		if len(s.Panels) > 0 {
			fmt.Fprintf(&b, "  loses:  %s\n", strings.Join(s.Panels, "; "))
		}
		if len(s.Rules) > 0 {
			fmt.Fprintf(&b, "  rules:  %s\n", strings.Join(s.Rules, ", "))
		}
		fix := s.Fix
		if fix == "" {
			fix = "none from the server's side"
		}
		fmt.Fprintf(&b, "  fix:    %s\n", fix)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
