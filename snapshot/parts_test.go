package snapshot

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// plainStrings are the Snapshot's string fields that never hold statement
// text, by path (a map[string]string's values as "Name[]"). A new string
// field is either a Part's Text or listed here: TestEveryTextFieldIsDeclared
// fails until it is one or the other.
var plainStrings = []string{
	"Server.Address", "Server.Version", "Server.Flavor", "Server.Error", "Server.LoginRefused",
	"Processlist.User", "Processlist.Host", "Processlist.DB", "Processlist.Command", "Processlist.State",
	"Status[]", "Variables[]", "SelfStatus[]", "Collectors.Error", "Collectors.Unavailable",
	"InnoDB.Transactions.Trx.ID", "InnoDB.Transactions.Trx.State", "InnoDB.Transactions.Trx.OSThread",
	"InnoDB.Semaphores.WaitList.Thread", "InnoDB.Semaphores.WaitList.File", "InnoDB.Semaphores.WaitList.Kind",
	"InnoDB.Semaphores.WaitList.Latch", "InnoDB.Semaphores.WaitList.Holder",
	"InnoDB.Semaphores.WaitList.HolderMode", "InnoDB.Semaphores.WaitList.LastWriter",
	// The other columns of a replica status row; Last_SQL_Error and
	// Last_Error are text.
	"Replica[]", "ReplicaChannels[]",
	"Host.Hostname", "Host.NotLocal", "Host.Disks.Name", "Host.Disks.Rotational", "Host.Nets.Name",
	"Host.Mounts.Point", "Host.Mounts.Device", "Host.Busiest.Name",
	"Threads.Process.Name", "Threads.Tasks.Name", "Threads.NoIO",
	"Explains.Fingerprint", "Explains.Method", "Explains.Rows.ID", "Explains.Rows.SelectType",
	"Explains.Rows.Table", "Explains.Rows.Type", "Explains.Rows.PossibleKeys", "Explains.Rows.Key", "Explains.Rows.Extra",
	"Statements.Digests.Schema", "Statements.Digests.Digest",
	"Locks.Waits.Kind", "Locks.Waits.Object", "Locks.Waits.Mode", "Locks.Waits.BlockerTrx", "Locks.Waits.Record",
	"Locks.Threads.TrxState", "Locks.Threads.TrxID", "Locks.Threads.XID", "Locks.Threads.XIDCandidates",
	"Locks.Sources[]", "Locks.Notes",
	"Filesystems.Path", "Filesystems.Roles", "Filesystems.Dirs",
	"PreparedOwners.User", "PreparedOwners.Host",
	"RefusedLogins.Log", "RefusedLogins.Refusals.User", "RefusedLogins.Refusals.Host", "RefusedLogins.Refusals.Reason",
	"HostErrors.IP", "HostErrors.Host", "HostErrors.LastError",
	"AccountLimits.User", "AccountLimits.Host",
	"Memory.Tables.Name", "Memory.Events.Name", "AppliedTables.Name",
}

// notParts are the Snapshot's fields no collector fills: the frame's own.
var notParts = []string{"Time", "Server", "Kept", "Collectors", "Approximate"}

// stringPaths lists the paths of every string a value of type t can hold.
func stringPaths(t reflect.Type, path string, out *[]string) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		stringPaths(t.Elem(), path, out)
	case reflect.Map:
		if t.Elem().Kind() == reflect.String {
			*out = append(*out, path+"[]")
			return
		}
		stringPaths(t.Elem(), path, out)
	case reflect.String:
		*out = append(*out, path)
	case reflect.Struct:
		if t.PkgPath() != reflect.TypeFor[Snapshot]().PkgPath() {
			return // time.Time and the like
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				stringPaths(f.Type, strings.TrimPrefix(path+"."+f.Name, "."), out)
			}
		}
	}
}

// textPaths are the paths Parts declares as text, a keyed map entry as
// the map's "Name[]".
func textPaths(parts []Part) map[string]bool {
	out := map[string]bool{}
	for _, p := range parts {
		for _, f := range p.Text {
			name, _, keyed := strings.Cut(f.Path, "[")
			if keyed {
				name += "[]"
			}
			out[name] = true
		}
	}
	return out
}

// undeclaredStrings are the string paths of Snapshot neither declared as
// text by parts nor listed as plain.
func undeclaredStrings(parts []Part) []string {
	var all, out []string
	stringPaths(reflect.TypeFor[Snapshot](), "", &all)
	text := textPaths(parts)
	for _, p := range all {
		if !text[p] && !slices.Contains(plainStrings, p) {
			out = append(out, p)
		}
	}
	return out
}

// TestEveryTextFieldIsDeclared: every string a Snapshot can hold, however
// deep, is a Part's text (masked, redacted) or listed as plain; a text field
// a row leaves out is found.
func TestEveryTextFieldIsDeclared(t *testing.T) {
	if u := undeclaredStrings(Parts); len(u) > 0 {
		t.Errorf("string fields neither a Part's Text nor in plainStrings: %q", u)
	}
	var all []string
	stringPaths(reflect.TypeFor[Snapshot](), "", &all)
	for _, p := range plainStrings {
		if !slices.Contains(all, p) {
			t.Errorf("plainStrings lists %s, which Snapshot has not", p)
		}
	}
	// The row of the replica without its errors: they are found.
	parts := slices.Clone(Parts)
	for i := range parts {
		if parts[i].Collector == CollectorReplica || parts[i].Collector == CollectorExplain {
			parts[i].Text = nil
		}
	}
	got := undeclaredStrings(parts)
	if !slices.Contains(got, "Explains.Statement") || !slices.Contains(got, "Explains.Error") {
		t.Errorf("text left out of the explain row was not found: %q", got)
	}
}

// TestEveryCollectorHasAPart: each CollectorName declared in contracts.go has
// one row, and each Snapshot field belongs to one row or to the frame.
func TestEveryCollectorHasAPart(t *testing.T) {
	declared := collectorConstants(t)
	if len(declared) < 10 {
		t.Fatalf("read %d collector names from contracts.go", len(declared))
	}
	for _, n := range declared {
		if _, ok := PartOf(CollectorName(n)); !ok {
			t.Errorf("collector %q has no row in Parts", n)
		}
	}
	owner := map[string]CollectorName{}
	seen := map[CollectorName]bool{}
	for _, p := range Parts {
		if seen[p.Collector] {
			t.Errorf("two rows for %s", p.Collector)
		}
		seen[p.Collector] = true
		if len(p.Panels) == 0 {
			t.Errorf("%s feeds no panel", p.Collector)
		}
		for _, f := range p.Fields {
			if _, ok := reflect.TypeFor[Snapshot]().FieldByName(f); !ok {
				t.Errorf("%s: no Snapshot field %s", p.Collector, f)
			}
			if o, ok := owner[f]; ok {
				t.Errorf("%s filled by %s and %s", f, o, p.Collector)
			}
			owner[f] = p.Collector
		}
		for _, f := range p.Text {
			top, _, _ := strings.Cut(strings.SplitN(f.Path, ".", 2)[0], "[")
			if !slices.Contains(p.Fields, top) {
				t.Errorf("%s: text %s is not in its fields", p.Collector, f.Path)
			}
		}
	}
	st := reflect.TypeFor[Snapshot]()
	for i := range st.NumField() {
		if f := st.Field(i).Name; owner[f] == "" && !slices.Contains(notParts, f) {
			t.Errorf("Snapshot.%s belongs to no Part", f)
		}
	}
}

// collectorConstants reads the names of contracts.go's CollectorName constants.
func collectorConstants(t *testing.T) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "contracts.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || vs.Type == nil || len(vs.Values) != 1 {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "CollectorName" {
			if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
				out = append(out, strings.Trim(lit.Value, `"`))
			}
		}
		return true
	})
	return out
}

const leak = "hunter2-leak"

// snapshotWithSecrets is a Snapshot with a password in each text field
// Parts declares, in the form that field quotes statements in.
func snapshotWithSecrets(t *testing.T) *Snapshot {
	s := &Snapshot{}
	for _, c := range texts {
		stmt := "ALTER USER app IDENTIFIED BY '" + leak + "'"
		if c.Kind == TextError {
			stmt = "Error 'Operation ALTER USER failed for 'app'@'%'' on query. Default database: ''. Query: '" + stmt + "'"
		}
		fillPath(reflect.ValueOf(s).Elem(), c.steps, stmt)
	}
	if b, _ := json.Marshal(s); strings.Count(string(b), leak) != len(texts) {
		t.Fatalf("%d text fields filled, %d passwords in %s", len(texts), strings.Count(string(b), leak), b)
	}
	return s
}

// fillPath makes v hold text at the end of steps, creating what is missing.
func fillPath(v reflect.Value, steps []textStep, text string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillPath(v.Elem(), steps, text)
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		fillPath(v.Index(0), steps, text)
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		if steps[0].field < 0 {
			v.SetMapIndex(reflect.ValueOf(steps[0].key), reflect.ValueOf(text))
			return
		}
		key := reflect.ValueOf("k")
		e := reflect.New(v.Type().Elem()).Elem()
		if old := v.MapIndex(key); old.IsValid() {
			e.Set(old)
		}
		fillPath(e, steps, text)
		v.SetMapIndex(key, e)
	case reflect.Struct:
		fillPath(v.Field(steps[0].field), steps[1:], text)
	case reflect.String:
		v.SetString(text)
	}
}

// TestMaskSecretsEveryTextField: the password is gone from every declared
// text field, replica errors and failed plans included.
func TestMaskSecretsEveryTextField(t *testing.T) {
	s := snapshotWithSecrets(t)
	s.MaskSecrets(nil)
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), leak) {
		t.Errorf("a password survived masking: %s", b)
	}
}

// TestWithTextRewrittenLeavesTheOriginal: the copy is rewritten, the
// snapshot it was made from is not, however deep the text.
func TestWithTextRewrittenLeavesTheOriginal(t *testing.T) {
	s := snapshotWithSecrets(t)
	before, _ := json.Marshal(s)
	c := s.WithTextRewritten(TextKind.Redact)
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Fatalf("the original changed:\n%s\n%s", before, after)
	}
	if b, _ := json.Marshal(c); strings.Contains(string(b), leak) {
		t.Errorf("the copy kept a literal: %s", b)
	}
	n := 0
	s.EachText(func(TextKind, string) { n++ })
	if n != len(texts) {
		t.Errorf("EachText saw %d texts of %d", n, len(texts))
	}
}

// TestMaskSecretsSkipsSharedParts: a part carried from the previous snapshot
// (the same pointer) was masked with it and is not walked again.
func TestMaskSecretsSkipsSharedParts(t *testing.T) {
	prev := snapshotWithSecrets(t)
	s := &Snapshot{InnoDB: prev.InnoDB, Processlist: []Process{{Info: "SET PASSWORD = 'x'"}}}
	s.MaskSecrets(prev)
	if !strings.Contains(s.InnoDB.Raw, leak) || s.Processlist[0].Info != "SET PASSWORD = <secret>" {
		t.Errorf("carried part walked or own part missed: %q, %q", s.InnoDB.Raw, s.Processlist[0].Info)
	}
}
