package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

//go:embed postmortem.html.tmpl
var htmlSource string

var htmlPage = template.Must(template.New("postmortem").Funcs(template.FuncMap{
	"when":   func(t time.Time) string { return t.Format(time.DateTime) },
	"clock":  func(t time.Time) string { return t.Format(time.TimeOnly) },
	"sev":    func(s snapshot.Severity) string { return s.String() },
	"num":    func(v float64) string { return fmt.Sprintf("%.4g", v) },
	"steps":  func(tl *Timeline) string { return (time.Duration(tl.Step) * time.Second).String() },
	"longer": func(a, b time.Time) string { return b.Sub(a).Round(time.Second).String() },
}).Parse(htmlSource))
