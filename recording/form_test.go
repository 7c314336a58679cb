package recording

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
	"github.com/mytop-go/mytop-go/snapshot"
)

// frameJSON is one snapshot's stored form, on its own (as a keyframe).
func frameJSON(s *snapshot.Snapshot) ([]byte, error) {
	return new(frameForm).encode(s, true)
}

// v1JSON is a snapshot as version 1 stored it.
func v1JSON(s *snapshot.Snapshot) ([]byte, error) {
	c := *s
	c.Variables = nil
	return json.Marshal(&c)
}

// storedFrames serialises n consecutive snapshots of srv as a writer would,
// the first as a keyframe.
func storedFrames(t testing.TB, srv *fakeServer, n int) [][]byte {
	t.Helper()
	var form frameForm
	out := make([][]byte, n)
	for i := range out {
		raw, err := form.encode(srv.frame(i).Snapshot, i == 0)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = raw
	}
	return out
}

func proc(id int64, cmd, state, info string, ms int64) snapshot.Process {
	return snapshot.Process{ID: id, User: "app", Host: "10.0.0.1:4000", DB: "shop", Command: cmd, State: state, Info: info, TimeMS: ms}
}

// TestProcesslistFormRoundTrip feeds the form sequences of processlists;
// every stored frame must decode, on its own, to exactly what was given.
func TestProcesslistFormRoundTrip(t *testing.T) {
	sleep := func(id, ms int64) snapshot.Process { return proc(id, "Sleep", "", "", ms) }
	odd := snapshot.Process{ID: -1, User: "", Host: "Sleep", DB: "Sleep", Command: "", State: "Sleep",
		Info: "SELECT 'ü\x00\"'", TimeMS: -5, ExaminedRows: -1, Progress: 12.345678901234567, NoIndexUsed: true,
		OSThread: 4242, MemoryBytes: 1 << 40}
	cases := []struct {
		name   string
		frames [][]snapshot.Process
		keys   []int // frames written as keyframes, besides the first
	}{
		{"steady threads", [][]snapshot.Process{
			{sleep(1, 0), sleep(2, 500)}, {sleep(1, 1000), sleep(2, 1500)}, {sleep(1, 2000), sleep(2, 2500)}}, nil},
		{"statements come and go", [][]snapshot.Process{
			{proc(1, "Query", "Sending data", "SELECT 1", 10), sleep(2, 0)},
			{proc(1, "Query", "Sending data", "SELECT 2", 5), proc(2, "Query", "Updating", "UPDATE t SET a=1", 3)},
			{sleep(1, 0), proc(2, "Query", "Updating", "UPDATE t SET a=1", 1003), proc(3, "Query", "init", "SELECT 3", 0)},
			{sleep(3, 0)}, {}, {sleep(4, 0)}}, nil},
		{"odd values", [][]snapshot.Process{{odd}, {odd, odd}, {sleep(1, 1<<62), odd}, {sleep(1, -1<<62)}}, nil},
		{"clock goes back", [][]snapshot.Process{{sleep(1, 9000)}, {sleep(1, 100)}, {sleep(1, 100)}}, nil},
		{"keyframe rebuilds the table", [][]snapshot.Process{
			{proc(1, "Query", "a", "SELECT 1", 0)}, {proc(1, "Query", "b", "SELECT 2", 0)},
			{proc(1, "Query", "c", "SELECT 3", 0)}, {proc(1, "Query", "c", "SELECT 3", 1000)}}, []int{2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var form frameForm
			for i, procs := range c.frames {
				s := &snapshot.Snapshot{Time: fakeStart.Add(time.Duration(i) * time.Second), Processlist: procs}
				raw, err := form.encode(s, i == 0 || contains(c.keys, i))
				if err != nil {
					t.Fatal(err)
				}
				got, _, err := decodeFrame(raw, chainState{})
				if err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
				want := procs
				if len(want) == 0 {
					want = nil // as JSON gives an empty processlist back
				}
				if !reflect.DeepEqual(got.Processlist, want) {
					t.Fatalf("frame %d:\n got %+v\nwant %+v", i, got.Processlist, want)
				}
			}
		})
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestSteadyThreadRepeatsItsBytes checks what the form is for: a thread that
// keeps its activity stores the same since_ms and index while others change
// statement around it, and freed slots are reused.
func TestSteadyThreadRepeatsItsBytes(t *testing.T) {
	var form frameForm
	var prev *storedProcesslist
	for i := range 5 {
		procs := []snapshot.Process{
			proc(1, "Query", "Sending data", "SELECT "+string(rune('a'+i)), 0),
			proc(2, "Sleep", "", "", int64(i)*1000+400),
			proc(3, "Query", "Updating", "UPDATE t", int64(i)*1000+7),
		}
		st := form.pl.encode(procs, i == 0)
		if prev != nil {
			if st.SinceMS[1] != prev.SinceMS[1] || st.SinceMS[2] != prev.SinceMS[2] || st.Activity[1:] != prev.Activity[1:] {
				t.Errorf("frame %d: since %v activity %q, before %v %q", i, st.SinceMS, st.Activity, prev.SinceMS, prev.Activity)
			}
			if len(st.Strings) != len(prev.Strings) || len(st.Activities) != len(prev.Activities) {
				t.Errorf("frame %d: tables grew to %d strings, %q activities; freed slots should be reused",
					i, len(st.Strings), st.Activities)
			}
		}
		prev = st
	}
}

// TestProcessFieldsAllStored fails when snapshot.Process gains a field the
// column form does not store: it would be lost from every recording.
func TestProcessFieldsAllStored(t *testing.T) {
	stored := []string{"ID", "User", "Host", "DB", "Command", "TimeMS", "State", "Info", "ExaminedRows", "Progress", "NoIndexUsed",
		"OSThread", "MemoryBytes"}
	var got []string
	typ := reflect.TypeFor[snapshot.Process]()
	for i := range typ.NumField() {
		got = append(got, typ.Field(i).Name)
	}
	if !reflect.DeepEqual(got, stored) {
		t.Errorf("snapshot.Process fields %v; storedProcesslist stores %v: add the new ones to form_processlist.go", got, stored)
	}
}

// TestDecodeFrameReadsVersion1 checks a frame in version 1's form (one
// object per thread) still decodes.
func TestDecodeFrameReadsVersion1(t *testing.T) {
	s := newFakeServer(t, 5, 20).frame(0).Snapshot
	raw, err := v1JSON(s)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := decodeFrame(raw, chainState{})
	if err != nil {
		t.Fatal(err)
	}
	got.Variables = s.Variables
	sameSnapshot(t, 0, got, s)
}

// TestReadsAndAppendsToVersion1File opens the first-round example kept as
// cmd/mytop-go/testdata/incident.mytop (written in
// version 1), appends to a copy, and reads old and new frames back.
func TestReadsAndAppendsToVersion1File(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.mytop")
	testfiles.CopyFile(t, "../cmd/mytop-go/testdata/incident.mytop", path)
	r := openT(t, path)
	if r.meta.SchemaVersion != 1 {
		t.Fatalf("example is version %d; this test needs a version 1 file", r.meta.SchemaVersion)
	}
	old := r.Len()
	threads := 0
	for i := range old {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		threads += len(s.Processlist)
	}
	if threads == 0 {
		t.Fatal("no processlist decoded from the example")
	}
	r.Close()
	w, err := Create(path, WriterOptions{Append: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 6, 30)
	var added []*snapshot.Frame
	for i := range 5 {
		f := srv.frame(i)
		f.Snapshot.Time = time.Now().Add(time.Duration(i) * time.Second).UTC()
		added = append(added, f)
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r = openT(t, path)
	if r.meta.SchemaVersion != schemaVersion || r.Len() != old+len(added) {
		t.Fatalf("after append: version %d, %d frames", r.meta.SchemaVersion, r.Len())
	}
	for i := range r.Len() {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		if i >= old {
			sameSnapshot(t, i, s, added[i-old].Snapshot)
		}
	}
}

// TestDocumentedExampleDecodes keeps docs/recording-format.md's example of
// the column form honest.
func TestDocumentedExampleDecodes(t *testing.T) {
	raw := `{"time":"2026-12-01T04:00:00Z","server":{},"pl": {"strings": ["app", "10.0.0.1:4000", "shop", "Sleep", "", "Query", "Sending data", "SELECT 1"],
       "activities": "344567",
       "base_ms": 7000, "id": [101, 102],
       "user": "00", "host": "11", "db": "22", "activity": "01",
       "since_ms": [2000, 6990], "examined_rows": [0, 1200]}}`
	s, _, err := decodeFrame([]byte(raw), chainState{})
	if err != nil {
		t.Fatal(err)
	}
	want := []snapshot.Process{
		{ID: 101, User: "app", Host: "10.0.0.1:4000", DB: "shop", Command: "Sleep", TimeMS: 5000},
		{ID: 102, User: "app", Host: "10.0.0.1:4000", DB: "shop", Command: "Query", State: "Sending data", Info: "SELECT 1", TimeMS: 10, ExaminedRows: 1200},
	}
	if !reflect.DeepEqual(s.Processlist, want) {
		t.Errorf("got %+v", s.Processlist)
	}
}

// TestDamagedColumnsFail checks that a column form that does not add up is
// an error, not a panic or a wrong processlist.
func TestDamagedColumnsFail(t *testing.T) {
	good := storedProcesslist{Strings: []string{"a", "b"}, Activities: "011", ID: []int64{1, 2},
		User: "00", Host: "00", DB: "00", Activity: "00", SinceMS: []int64{0, 0}}
	if _, err := good.rows(); err != nil {
		t.Fatalf("good form: %v", err)
	}
	cases := map[string]func(*storedProcesslist){
		"short column":       func(st *storedProcesslist) { st.User = "0" },
		"index past table":   func(st *storedProcesslist) { st.Host = "02" },
		"bad digit":          func(st *storedProcesslist) { st.DB = "0!" },
		"activity past list": func(st *storedProcesslist) { st.Activity = "01" },
		"ragged activities":  func(st *storedProcesslist) { st.Activities = "0110" },
		"activity string":    func(st *storedProcesslist) { st.Activities = "012" },
		"short times":        func(st *storedProcesslist) { st.SinceMS = st.SinceMS[:1] },
		"short examined":     func(st *storedProcesslist) { st.ExaminedRows = []int64{1} },
	}
	for name, damage := range cases {
		st := good
		damage(&st)
		if _, err := st.rows(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
