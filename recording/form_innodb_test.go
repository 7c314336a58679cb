package recording

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// parsedInnoDB is a status as the collector makes it: parsed from the text,
// then given the redo capacity of the variables.
func parsedInnoDB(t *testing.T, path string) *snapshot.InnoDBStatus {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in, err := parse.ParseInnoDBStatus(string(text))
	if err != nil {
		t.Fatal(err)
	}
	in.FillCapacity(map[string]string{"innodb_log_file_size": "100663296"})
	return in
}

// TestInnoDBTextForm: every monitor output of the parser's test data is
// stored as its text alone and reads back as the status the collector
// made; a status that its text does not give (hand-built, or redacted to
// no text) is stored whole and reads back too.
func TestInnoDBTextForm(t *testing.T) {
	texts, err := filepath.Glob("../snapshot/parse/testdata/innodb-status/*.txt")
	if err != nil || len(texts) < 10 {
		t.Fatalf("test data: %v, %d files", err, len(texts))
	}
	type tc struct {
		in       *snapshot.InnoDBStatus
		textForm bool
	}
	cases := map[string]tc{}
	for _, p := range texts {
		cases[filepath.Base(p)] = tc{parsedInnoDB(t, p), true}
	}
	edited := *parsedInnoDB(t, texts[0])
	edited.Rows.Read++
	cases["parsed sections not the text's"] = tc{&edited, false}
	noCapacity := *parsedInnoDB(t, texts[0])
	noCapacity.Log.CheckpointAgePercent = 0
	noCapacity.Log.CapacityBytes = 0
	// the variables were not known: the text alone gives no capacity
	cases["no capacity"] = tc{&noCapacity, true}
	redacted := *parsedInnoDB(t, texts[0])
	redacted.Raw = ""
	cases["redacted: no text"] = tc{&redacted, false}
	cases["not monitor output"] = tc{&snapshot.InnoDBStatus{Raw: "hello"}, false}

	for name, c := range cases {
		var f frameForm
		s := &snapshot.Snapshot{Time: time.Unix(1764650000, 0).UTC(), InnoDB: c.in}
		raw, err := f.encode(s, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(raw, []byte(`"innodb_text":`)); got != c.textForm {
			t.Errorf("%s: text form %v, want %v", name, got, c.textForm)
		}
		if c.textForm && bytes.Contains(raw, []byte(`"innodb":`)) {
			t.Errorf("%s: the parsed sections are stored too", name)
		}
		got, _, err := decodeFrame(raw, chainState{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.InnoDB, c.in) {
			g, _ := json.Marshal(got.InnoDB)
			w, _ := json.Marshal(c.in)
			t.Errorf("%s: read back\n %.400s\nwant\n %.400s", name, g, w)
		}
	}
}

// TestInnoDBTextCheckedOncePerRead: the collector carries one parsed
// status across the ticks until its next read, and the writer checks it
// once, keeping its answer for the same pointer.
func TestInnoDBTextCheckedOncePerRead(t *testing.T) {
	texts, _ := filepath.Glob("../snapshot/parse/testdata/innodb-status/*.txt")
	in := parsedInnoDB(t, texts[0])
	var f innodbForm
	first := f.encode(in)
	if first == nil || f.encode(in) != first {
		t.Fatalf("same status: %p then %p", first, f.encode(in))
	}
	other := parsedInnoDB(t, texts[0])
	if got := f.encode(other); got == first || got == nil {
		t.Errorf("a new read reused the last answer (%p)", got)
	}
}

// TestOlderFrameFormsRead: the same snapshot in each version's stored form
// decodes to the same snapshot: version 1 (one object per thread), version
// 3 (the InnoDB status whole, as version 4 still writes it when the text does
// not give it), version 4 (its text alone).
func TestOlderFrameFormsRead(t *testing.T) {
	texts, _ := filepath.Glob("../snapshot/parse/testdata/innodb-status/*.txt")
	s := newFakeServer(t, 5, 20).frame(3).Snapshot
	s.InnoDB = parsedInnoDB(t, texts[0])
	var f frameForm
	v4, err := f.encode(s, true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(v4, []byte(`"innodb_text":`)) {
		t.Fatal("version 4 form without innodb_text")
	}
	var o orderedObject
	if err := json.Unmarshal(v4, &o); err != nil {
		t.Fatal(err)
	}
	o.drop("innodb_text")
	whole, _ := json.Marshal(s.InnoDB)
	o.keys = append([]string{"innodb"}, o.keys...)
	o.vals = append([]json.RawMessage{whole}, o.vals...)
	v3 := o.marshal()
	v1, err := v1JSON(s)
	if err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string][]byte{"version 1": v1, "version 3": v3, "version 4": v4} {
		got, _, err := decodeFrame(raw, chainState{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got.Variables = s.Variables
		if !reflect.DeepEqual(got.InnoDB, s.InnoDB) {
			t.Errorf("%s: InnoDB status differs", name)
		}
		sameSnapshot(t, 0, got, s)
	}
}
