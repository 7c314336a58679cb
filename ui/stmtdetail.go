package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// statementExplainer is what a live source offers beyond Actions: EXPLAIN of
// a statement no thread runs (a digest's sample text).
type statementExplainer interface {
	ExplainStatement(ctx context.Context, schema, query string) ([]snapshot.ExplainRow, error)
}

// open shows the selected statement in full, or its EXPLAIN; closing it goes
// back to the statements view.
func (v *stmtView) open(parent *modal, explain bool) {
	r := v.selected()
	if r == nil {
		v.d.say("no statement selected")
		return
	}
	tv := newTextView(" Statement ", statementText(r))
	child := textModal(tv)
	m := &modal{view: tv, place: child.place, handle: func(ev *tcell.EventKey) bool {
		if child.handle(ev) {
			v.d.modal = parent
		}
		return false
	}}
	v.d.openModal(m)
	if !explain {
		return
	}
	tv.SetTitle(" EXPLAIN of the sample ")
	switch ex, ok := v.d.opts.Actions.(statementExplainer); {
	case r.Sample == "":
		tv.SetText(safeText(r.Fingerprint) + "\n\n[yellow]No sample text for this digest: MySQL 8 keeps one " +
			"(QUERY_SAMPLE_TEXT); elsewhere one is taken from the processlist when a statement of it is seen running.[-]")
	case !ok || v.d.opts.Actions == nil:
		tv.SetText(safeText(r.Sample) + "\n\n[yellow]EXPLAIN needs a server connection (this is a replay or import).[-]")
	default:
		schema, query := r.Schema, r.Sample
		tv.SetText("running EXPLAIN …")
		async(v.d, func() string {
			ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
			defer cancel()
			rows, err := ex.ExplainStatement(ctx, schema, query)
			return explainText(query, rows, err)
		}, func(text string) { tv.SetText(text) })
	}
}

// statementText is every figure of one statement, then its texts.
func statementText(r *snapshot.StatementRate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[::b]source[::-] %s", r.Source)
	if r.Digest != "" {
		fmt.Fprintf(&b, "  [::b]digest[::-] %s", r.Digest)
	}
	if r.Schema != "" {
		fmt.Fprintf(&b, "  [::b]schema[::-] %s", safeLine(r.Schema, 64))
	}
	b.WriteString("\n\n")
	for _, c := range stmtCols {
		fmt.Fprintf(&b, "  %-10s %s\n", c.title, c.text(c.value(r)))
	}
	if r.MaxS > 0 || r.P99S > 0 {
		fmt.Fprintf(&b, "  %-10s %s   (max and p99 since the digest was first seen)\n", "p99/max ms",
			msText(r.P99S)+" / "+msText(r.MaxS))
	}
	b.WriteString("\n[::b]fingerprint[::-]\n" + safeText(r.Fingerprint) + "\n")
	if r.Sample != "" {
		b.WriteString("\n[::b]sample[::-] (e: EXPLAIN it)\n" + safeText(r.Sample) + "\n")
	}
	return b.String()
}
