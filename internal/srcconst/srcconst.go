// Package srcconst reads the string constants a package declares, from its
// source, so a test can check that every one of a kind is registered in its
// table (a rule's ID in allRules, an importer's kind in kinds).
package srcconst

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// Strings returns name → value of the string constants declared in the
// non-test .go files of dir that match (given the name and the declared type,
// nil when untyped), with the file each is in.
func Strings(dir string, match func(name string, typ ast.Expr) bool) (values, files map[string]string, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	values, files = map[string]string{}, map[string]string{}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, nil, err
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				for i, n := range v.Names {
					if i >= len(v.Values) || !match(n.Name, v.Type) {
						continue
					}
					lit, ok := v.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return nil, nil, fmt.Errorf("%s: %s is not a string literal", name, n.Name)
					}
					values[n.Name], _ = strconv.Unquote(lit.Value)
					files[n.Name] = filepath.Base(name)
				}
			}
		}
	}
	return values, files, nil
}
