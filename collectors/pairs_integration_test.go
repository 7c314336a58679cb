package collectors

import (
	"context"
	"testing"
	"unsafe"
)

func TestPairReaderSharesNamesAndUnchangedValues(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	db := productDB(t)
	ctx := context.Background()
	var r pairReader
	a, err := r.read(ctx, db, "SHOW GLOBAL STATUS")
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.read(ctx, db, "SHOW GLOBAL STATUS")
	if err != nil {
		t.Fatal(err)
	}
	if len(a) < 100 || len(a) != len(b) {
		t.Fatalf("read %d then %d status values", len(a), len(b))
	}
	if a["Questions"] == b["Questions"] {
		t.Errorf("Questions did not move between two reads: %s", a["Questions"])
	}
	// Map keys cannot be fetched by name, so compare them through a scan.
	names := map[string]*byte{}
	for k := range a {
		names[k] = unsafe.StringData(k)
	}
	sharedValues := 0
	for k, v := range b {
		if names[k] != unsafe.StringData(k) {
			t.Fatalf("name %q allocated again on the second read", k)
		}
		if v != "" && v == a[k] && unsafe.StringData(v) == unsafe.StringData(a[k]) {
			sharedValues++
		}
	}
	if sharedValues < len(b)/2 {
		t.Errorf("only %d of %d values shared with the first read", sharedValues, len(b))
	}
}
