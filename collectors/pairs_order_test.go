package collectors

import (
	"testing"
	"unsafe"
)

// readRows is pairReader.read of rows given as name, value, name, value...
func readRows(r *pairReader, rows ...string) map[string]string {
	m := r.begin()
	for i := 0; i+1 < len(rows); i += 2 {
		r.put(m, []byte(rows[i]), []byte(rows[i+1]))
	}
	r.end(m)
	return m
}

// keyData is where map m stores its key equal to name.
func keyData(m map[string]string, name string) *byte {
	for k := range m {
		if k == name {
			return unsafe.StringData(k)
		}
	}
	return nil
}

// The reader keeps no name index while rows come in the same order, builds
// one when a row is added, still sharing the names read before, and drops
// it again once the order holds.
func TestPairReaderInternsNamesAcrossAReorder(t *testing.T) {
	var r pairReader
	a := readRows(&r, "Uptime", "10", "Questions", "5")
	readRows(&r, "Uptime", "11", "Questions", "5")
	if r.names != nil {
		t.Fatal("a read in the same order kept the name index")
	}
	c := readRows(&r, "Aborted_clients", "0", "Uptime", "12", "Questions", "7")
	if r.names == nil || c["Uptime"] != "12" || c["Aborted_clients"] != "0" || len(c) != 3 {
		t.Fatalf("after a row was added: %v (index kept %v)", c, r.names != nil)
	}
	if keyData(c, "Questions") != keyData(a, "Questions") {
		t.Error("a name read before was allocated again after the reorder")
	}
	d := readRows(&r, "Aborted_clients", "0", "Uptime", "13", "Questions", "7")
	if r.names != nil || unsafe.StringData(d["Questions"]) != unsafe.StringData(c["Questions"]) {
		t.Error("the same order again kept the index, or did not share an unchanged value")
	}
}
