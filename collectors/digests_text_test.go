package collectors

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestDigestTextsComeFromTheCacheOnceKnown(t *testing.T) {
	st := &digestState{}
	ds := []snapshot.Digest{{Schema: "shop", Digest: "aa", Text: "SELECT ?"}, {Digest: "bb", Text: "COMMIT"}}
	if err := st.fillTexts(context.Background(), nil, ds, true); err != nil {
		t.Fatal(err)
	}
	if !st.withText {
		t.Error("digests new to the cache: the next read should still ask for the text")
	}
	for i := range quietReads {
		if !st.withText {
			t.Fatalf("read %d after new digests already leaves the text out", i)
		}
		known := []snapshot.Digest{{Schema: "shop", Digest: "aa", Text: "SELECT ?"}}
		st.fillTexts(context.Background(), nil, known, true)
	}
	if st.withText {
		t.Errorf("%d quiet reads: the next still asks for the text", quietReads)
	}
	again := []snapshot.Digest{{Schema: "shop", Digest: "aa"}, {Digest: "bb"}}
	if err := st.fillTexts(context.Background(), nil, again, false); err != nil {
		t.Fatal(err)
	}
	if again[0].Text != "SELECT ?" || again[1].Text != "COMMIT" || st.withText {
		t.Errorf("from the cache: %+v, withText %v", again, st.withText)
	}
	other := []snapshot.Digest{{Schema: "crm", Digest: "aa", Text: "SELECT ?"}}
	st.fillTexts(context.Background(), nil, other, true)
	if !st.withText {
		t.Error("the same digest in another schema is another row")
	}
}

func TestDigestTextCacheStaysBounded(t *testing.T) {
	var c textCache
	text := strings.Repeat("x", 1000)
	for i := range 5000 {
		c.reads++
		c.put(fmt.Sprintf("k%d", i), text)
		if i == 10 {
			c.get("k0")
		}
		if c.bytes > maxTextBytes {
			t.Fatalf("%d bytes after %d texts", c.bytes, i)
		}
	}
	if _, ok := c.get("k4999"); !ok {
		t.Error("the newest text was dropped")
	}
	if _, ok := c.get("k1"); ok {
		t.Error("an old text was kept")
	}
}

func TestDigestTextQueryOnlyNamesHexDigests(t *testing.T) {
	if !isHex("9947cc24e58e207c5007daa458a6cb69") || isHex("x' OR 1 --") || isHex("") {
		t.Error("isHex")
	}
}

// BenchmarkDigestIntervalRows is the monitor's share of one interval read
// with 50,000 digests known and 200 of them changed, without the driver:
// decoding the rows' counters, the differences, the costliest 200 and their
// texts from the cache (MYTOP_DIGEST_COST=1's live test has the driver's).
func BenchmarkDigestIntervalRows(b *testing.B) {
	const known, changed = 50_000, 200
	st := &digestState{cursor: 1000, prev: make(map[string]digestCounters, known)}
	for i := range known {
		st.prev[digestKey("shop", fmt.Sprintf("%032x", i))] = digestCounters{cCalls: 100, cTimer: 1e12, cExamined: 1000}
	}
	cols := &digestColumns{}
	rows := make([][]sql.RawBytes, changed)
	for i := range rows {
		fields := []string{"1005", "900", "shop", fmt.Sprintf("%032x", i*250),
			"150", "0", "0", "1500000000000", "1000000", "51000", "150", "0", "60", "0", "0", "0", "0", "5000000000"}
		rows[i] = make([]sql.RawBytes, len(fields))
		for j, f := range fields {
			rows[i][j] = sql.RawBytes(f)
		}
		st.texts.put(digestKey("shop", fields[3]), "SELECT `o` . `order_id` FROM `shop` . `orders` `o` WHERE `o` . `status` IN (...)")
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		out := &snapshot.Statements{At: time.Now()}
		r := newDigestRows(false, cols, false)
		for _, raw := range rows {
			r.add(raw, st, out)
		}
		for k, v := range r.seen {
			st.prev[k] = v
		}
		for k := range r.seen { // as they were, for the next round
			st.prev[k] = digestCounters{cCalls: 100, cTimer: 1e12, cExamined: 1000}
		}
		out.Digests = costliest(r.changed, maxStoredDigests)
		if err := st.fillTexts(ctx, nil, out.Digests, false); err != nil {
			b.Fatal(err)
		}
		if len(out.Digests) != changed || out.Digests[0].Text == "" {
			b.Fatalf("%d digests", len(out.Digests))
		}
	}
}

// BenchmarkDigestFirstRead is a connection's first read: the counters of
// all 50,000 digests into the state.
func BenchmarkDigestFirstRead(b *testing.B) {
	const known = 50_000
	rows := make([][]sql.RawBytes, known)
	for i := range rows {
		fields := []string{"1005", "900", "shop", fmt.Sprintf("%032x", i),
			"150", "0", "0", "1500000000000", "1000000", "51000", "150", "0", "60", "0", "0", "0", "0"}
		rows[i] = make([]sql.RawBytes, len(fields))
		for j, f := range fields {
			rows[i][j] = sql.RawBytes(f)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		st := &digestState{}
		out := &snapshot.Statements{}
		r := newDigestRows(true, &digestColumns{}, false)
		for _, raw := range rows {
			r.add(raw, st, out)
		}
		st.prev = r.seen
	}
}
