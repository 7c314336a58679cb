// Package testlayout reads the repository's tests as source, to hold them
// to the layout docs/testing.md describes: which files start a throwaway
// server, and whether their tests run side by side.
package testlayout

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ServerSuffix ends the name of every test file with a test that starts a
// MariaDB (testdb.Start and its kin, directly or through a helper).
const ServerSuffix = "_integration_test.go"

// E2EPrefix begins the name of a test file of the command that drives the
// built binary (in tmux or as a child process); it may start a server too.
const E2EPrefix = "e2e_"

// starterPkg is the package whose Start* functions and Launch start a server.
const starterPkg = "internal/testdb"

// SerialMark begins the comment that says why a test which starts a server
// does not call t.Parallel (a fixed port, netem on lo, a figure of the
// host's CPU): in its doc comment or its body.
const SerialMark = "Serial:"

// Test is one test function that starts a server.
type Test struct {
	File     string // relative to the repository root
	Name     string
	Parallel bool   // calls t.Parallel in its own body
	Serial   string // the SerialMark comment's reason, if any
}

// File is one _test.go file: whether a test of it starts a server, or
// drives the built binary.
type File struct {
	Path         string // relative to the repository root
	StartsServer bool
	DrivesBinary bool
	Tests        []Test // its tests that start a server
}

// funcKey names a function or method of one package: dir, package name and
// name ("Type.Method" is kept as ".Method": calls resolve methods by name).
type funcKey struct{ dir, pkg, name string }

type parsedFile struct {
	rel     string
	dir     string
	pkg     string
	imports map[string]string // local name → directory relative to the root
	ast     *ast.File
}

// Read parses every Go file below root (a module root) and reports its
// test files.
func Read(root string) ([]File, error) {
	module, err := modulePath(root)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*parsedFile
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		pf := &parsedFile{rel: filepath.ToSlash(rel), dir: filepath.ToSlash(filepath.Dir(rel)), pkg: f.Name.Name,
			imports: map[string]string{}, ast: f}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p != module && !strings.HasPrefix(p, module+"/") {
				continue
			}
			dir := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
			if dir == "" {
				dir = "."
			}
			local := p[strings.LastIndexByte(p, '/')+1:]
			if im.Name != nil {
				local = im.Name.Name
			}
			pf.imports[local] = dir
		}
		files = append(files, pf)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return judge(files), nil
}

// judge finds the starters (every function that reaches a testdb starter)
// and reports each test file.
func judge(files []*parsedFile) []File {
	pkgOf := map[string]string{} // dir → name of its non-test package
	for _, f := range files {
		if !strings.HasSuffix(f.rel, "_test.go") || !strings.HasSuffix(f.pkg, "_test") {
			pkgOf[f.dir] = strings.TrimSuffix(f.pkg, "_test")
		}
	}
	type fn struct {
		file *parsedFile
		body ast.Node
	}
	funcs := map[funcKey]fn{}
	starters := map[funcKey]bool{}
	for _, f := range files {
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			k := keyOf(f, fd)
			funcs[k] = fn{f, fd.Body}
			if f.dir == starterPkg && !strings.HasSuffix(f.rel, "_test.go") &&
				(strings.HasPrefix(k.name, "Start") || k.name == "Launch") {
				starters[k] = true
			}
		}
	}
	binaryKey := funcKey{"cmd/mytop-go", "main", "binary"}
	tmuxKey := funcKey{"internal/tmuxtest", "tmuxtest", "Start"}
	reaches := func(f *parsedFile, body ast.Node, set map[funcKey]bool) bool {
		found := false
		ast.Inspect(body, func(n ast.Node) bool {
			if found {
				return false
			}
			for _, k := range refs(f, n, pkgOf) {
				if set[k] {
					found = true
				}
			}
			return !found
		})
		return found
	}
	// To a fixed point: a function that refers to a starter is one.
	for changed := true; changed; {
		changed = false
		for k, v := range funcs {
			if !starters[k] && reaches(v.file, v.body, starters) {
				starters[k], changed = true, true
			}
		}
	}
	drivers := map[funcKey]bool{binaryKey: true, tmuxKey: true}
	for changed := true; changed; {
		changed = false
		for k, v := range funcs {
			if !drivers[k] && reaches(v.file, v.body, drivers) {
				drivers[k], changed = true, true
			}
		}
	}
	var out []File
	for _, f := range files {
		if !strings.HasSuffix(f.rel, "_test.go") {
			continue
		}
		tf := File{Path: f.rel}
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil || !isTest(fd) {
				continue
			}
			k := keyOf(f, fd)
			tf.DrivesBinary = tf.DrivesBinary || drivers[k]
			if !starters[k] {
				continue
			}
			tf.StartsServer = true
			if strings.HasPrefix(fd.Name.Name, "Test") {
				tf.Tests = append(tf.Tests, Test{File: f.rel, Name: fd.Name.Name,
					Parallel: callsParallel(fd.Body), Serial: serialReason(f.ast, fd)})
			}
		}
		out = append(out, tf)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// keyOf names a declared function.
func keyOf(f *parsedFile, fd *ast.FuncDecl) funcKey {
	name := fd.Name.Name
	if fd.Recv != nil {
		name = "." + name
	}
	return funcKey{f.dir, f.pkg, name}
}

// refs resolves n, if it names a function, to the functions it may be:
// an identifier to its package's function, pkg.F to an imported package's,
// x.M to the methods named M of n's own package.
func refs(f *parsedFile, n ast.Node, pkgOf map[string]string) []funcKey {
	switch x := n.(type) {
	case *ast.Ident:
		return []funcKey{{f.dir, f.pkg, x.Name}, {f.dir, strings.TrimSuffix(f.pkg, "_test"), x.Name}}
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if dir, ok := f.imports[id.Name]; ok {
				return []funcKey{{dir, pkgOf[dir], x.Sel.Name}}
			}
		}
		return []funcKey{{f.dir, f.pkg, "." + x.Sel.Name}, {f.dir, strings.TrimSuffix(f.pkg, "_test"), "." + x.Sel.Name}}
	}
	return nil
}

// isTest says whether fd is a test, benchmark, fuzz target or example
// (TestMain is none).
func isTest(fd *ast.FuncDecl) bool {
	name := fd.Name.Name
	if name == "TestMain" {
		return false
	}
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// callsParallel says whether body calls x.Parallel() as one of its own
// statements (a subtest's call runs only that subtest beside its siblings).
func callsParallel(body *ast.BlockStmt) bool {
	for _, st := range body.List {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		if c, ok := es.X.(*ast.CallExpr); ok && len(c.Args) == 0 {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Parallel" {
				return true
			}
		}
	}
	return false
}

// serialReason is the text after SerialMark in fd's doc comment or in a
// comment inside it, "" when there is none.
func serialReason(file *ast.File, fd *ast.FuncDecl) string {
	var groups []*ast.CommentGroup
	if fd.Doc != nil {
		groups = append(groups, fd.Doc)
	}
	for _, g := range file.Comments {
		if g.Pos() >= fd.Pos() && g.End() <= fd.End() {
			groups = append(groups, g)
		}
	}
	for _, g := range groups {
		for _, c := range g.List {
			text := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(c.Text, "//"), "/*"))
			if r, ok := strings.CutPrefix(text, SerialMark); ok && strings.TrimSpace(r) != "" {
				return strings.TrimSpace(r)
			}
		}
	}
	return ""
}

// Problems says what in files breaks the layout: a file that starts a
// server without the marker, a marked file that starts none, a test that
// starts a server without t.Parallel nor a Serial comment.
func Problems(files []File) []string {
	var out []string
	for _, f := range files {
		base := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
		server := strings.HasSuffix(base, ServerSuffix)
		e2e := strings.HasPrefix(base, E2EPrefix)
		switch {
		case server && e2e:
			out = append(out, fmt.Sprintf("%s: one marker, not both (%s… drives the built binary)", f.Path, E2EPrefix))
		case e2e && !f.DrivesBinary:
			out = append(out, fmt.Sprintf("%s: named %s… but no test of it drives the built binary", f.Path, E2EPrefix))
		case f.DrivesBinary && !e2e && strings.HasPrefix(f.Path, "cmd/"):
			out = append(out, fmt.Sprintf("%s: drives the built binary: name it %s….go", f.Path, E2EPrefix))
		case f.StartsServer && !server && !e2e:
			out = append(out, fmt.Sprintf("%s: starts a server: name it …%s", f.Path, ServerSuffix))
		case server && !f.StartsServer:
			out = append(out, fmt.Sprintf("%s: named …%s but no test of it starts a server", f.Path, ServerSuffix))
		}
		for _, t := range f.Tests {
			if !t.Parallel && t.Serial == "" {
				out = append(out, fmt.Sprintf("%s: %s starts a server without t.Parallel(): call it, or say why not in a %q comment",
					f.Path, t.Name, "// "+SerialMark+" …"))
			}
		}
	}
	return out
}

// modulePath reads the module line of root's go.mod.
func modulePath(root string) (string, error) {
	fh, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.TrimSpace(m), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", filepath.Join(root, "go.mod"))
}
