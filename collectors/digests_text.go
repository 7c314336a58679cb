package collectors

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// What an interval read costs MariaDB 10.11 (measured with 50,000 digests
// of ~520-byte text, mysqld thread CPU per read; bench/RESULTS.md): the
// table has no index and no condition pushdown, so every read visits every
// digest, and for each one make_row formats the MD5 as hex (sprintf) and
// rebuilds DIGEST_TEXT from the token array before any WHERE applies — a
// SELECT COUNT(*) alone costs 119 ms. What a query can still choose is what
// is copied into each row: the counters and DIGEST_TEXT, 149 ms; the
// counters only, 128 ms. So interval reads leave DIGEST_TEXT out and take
// the text of the digests they store from textCache; a digest new to the
// cache is asked for by one more query (another 144 ms), and the reads after
// it ask for the text in their main query again until quietReads in a row
// met no new digest: a server whose digests keep changing pays 149 ms a
// read, never 128 + 144 twice in a row.

// textCache keeps the text of the digests stored lately, by schema and
// digest. DIGEST_TEXT is a function of the digest (its hash is of the same
// tokens), so a cached text never goes stale.
type textCache struct {
	byKey map[string]*cachedText
	bytes int
	reads int64
}

type cachedText struct {
	text string
	used int64 // the read that last stored it
}

// quietReads is how many reads in a row must meet no digest new to the
// cache before the next leaves DIGEST_TEXT out.
const quietReads = 3

// maxTextBytes bounds the cache; beyond it the half least recently stored
// are dropped.
const maxTextBytes = 2 << 20

func (c *textCache) get(key string) (string, bool) {
	e, ok := c.byKey[key]
	if !ok {
		return "", false
	}
	e.used = c.reads
	return e.text, true
}

func (c *textCache) put(key, text string) {
	if c.byKey == nil {
		c.byKey = map[string]*cachedText{}
	}
	if e, ok := c.byKey[key]; ok {
		e.used = c.reads
		return
	}
	c.byKey[key] = &cachedText{text: text, used: c.reads}
	c.bytes += len(key) + len(text)
	if c.bytes > maxTextBytes {
		c.evict()
	}
}

// evict drops the least recently used entries until half the budget is left.
func (c *textCache) evict() {
	keys := make([]string, 0, len(c.byKey))
	for k := range c.byKey {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(c.byKey[a].used, c.byKey[b].used) })
	for _, k := range keys {
		if c.bytes <= maxTextBytes/2 {
			break
		}
		c.bytes -= len(k) + len(c.byKey[k].text)
		delete(c.byKey, k)
	}
}

func digestKey(schema, digest string) string { return schema + "\x00" + digest }

// fillTexts gives the stored digests their text: from the rows when the
// read asked for it, else from the cache, else from one query for those
// the cache lacks. It decides whether the next read asks for the text.
func (st *digestState) fillTexts(ctx context.Context, q queryer, ds []snapshot.Digest, fromRows bool) error {
	c := &st.texts
	c.reads++
	var missing []int
	for i := range ds {
		d := &ds[i]
		key := digestKey(d.Schema, d.Digest)
		if fromRows {
			if _, ok := c.get(key); !ok {
				missing = append(missing, i)
			}
			c.put(key, d.Text)
			continue
		}
		if t, ok := c.get(key); ok {
			d.Text = t
		} else {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		st.quiet = 0
	} else {
		st.quiet++
	}
	st.withText = st.quiet < quietReads
	if fromRows || len(missing) == 0 {
		return nil
	}
	want := map[string][]int{}
	var in []string
	for _, i := range missing {
		d := ds[i]
		if !isHex(d.Digest) {
			continue
		}
		key := digestKey(d.Schema, d.Digest)
		if want[key] == nil {
			in = append(in, "'"+d.Digest+"'")
		}
		want[key] = append(want[key], i)
	}
	if len(in) == 0 {
		return nil
	}
	slices.Sort(in)
	in = slices.Compact(in)
	stmt := "SELECT SCHEMA_NAME, DIGEST, DIGEST_TEXT FROM " + digestTable + " WHERE DIGEST IN (" + strings.Join(in, ", ") + ")"
	return eachRow(ctx, q, stmt, func([]string) {}, func(raw []sql.RawBytes) {
		key := digestKey(string(raw[0]), string(raw[1]))
		idx, ok := want[key]
		if !ok {
			return
		}
		text := strings.TrimSpace(string(raw[2]))
		c.put(key, text)
		for _, i := range idx {
			ds[i].Text = text
		}
	})
}

// isHex guards the digests written into the text query: the server's own
// hashes, hex digits only.
func isHex(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}
