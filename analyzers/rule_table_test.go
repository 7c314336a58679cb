package analyzers

import (
	"go/ast"
	"os"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/internal/srcconst"
)

// Every finding ID a file declares is judged: its rule is a line of
// allRules, so a rule file whose line was forgotten fails here rather than
// staying silent.
func TestEveryRuleIsInTheTable(t *testing.T) {
	listed := map[string]bool{}
	for _, r := range allRules() {
		listed[r.id] = true
	}
	ids, files, err := srcconst.Strings(".", func(name string, _ ast.Expr) bool { return strings.HasPrefix(name, "ID") })
	if err != nil {
		t.Fatal(err)
	}
	for name, id := range ids {
		if !listed[id] {
			t.Errorf("%s: %s (%q) is not in allRules (rule.go)", files[name], name, id)
		}
	}
}

// Every rule is documented where a DBA looks it up: a row of the README's
// findings table and the catalogue of thresholds and their sources.
func TestEveryRuleIsDocumented(t *testing.T) {
	for _, doc := range []string{"../README.md", "../docs/rules-catalogue.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range allRules() {
			if !strings.Contains(string(b), "`"+r.id+"`") {
				t.Errorf("%s does not name finding %s", doc, r.id)
			}
		}
	}
}
