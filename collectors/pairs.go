package collectors

import (
	"context"
	"database/sql"
)

// pairReader reads (name, value) results such as SHOW GLOBAL STATUS into a
// map, sharing names and unchanged values with the map it read last. The
// analyzers keep five minutes of status maps; most of their ~500 values
// stand still from one second to the next, and all of their names do.
//
// The server sends the rows in the same order every time, so each row is
// first compared with the same row of the last read: a name and value that
// match are taken from there without a map lookup (two of the three map
// operations a row cost, at 600 rows a second per server).
type pairReader struct {
	last map[string]string
	// names interns names while rows come in another order than the last
	// read's (a row added or gone). It is dropped after a read in the same
	// order, where order does the interning: a map of 600 names is 41 KB a
	// server, and `serve` keeps one reader per server.
	names map[string]string
	// order is the last read's rows in the order they came; next is this
	// read's, and the two swap.
	order, next []pair
	// reordered says this read left the last read's order.
	reordered bool
}

type pair struct{ name, value string }

// read runs stmt (tagged) and returns its first two columns as a map.
func (r *pairReader) read(ctx context.Context, q queryer, stmt string) (map[string]string, error) {
	m := r.begin()
	err := eachRow(ctx, q, stmt, func([]string) {}, func(raw []sql.RawBytes) {
		if len(raw) >= 2 {
			r.put(m, raw[0], raw[1])
		}
	})
	if err != nil {
		return nil, err
	}
	r.end(m)
	return m, nil
}

func (r *pairReader) begin() map[string]string {
	r.next, r.reordered = r.next[:0], false
	return make(map[string]string, len(r.last))
}

func (r *pairReader) end(m map[string]string) {
	r.last = m
	r.order, r.next = r.next, r.order
	if !r.reordered || len(r.names) > 2*len(m)+64 {
		r.names = nil
	}
}

func (r *pairReader) put(m map[string]string, name, value []byte) {
	if i := len(r.next); i < len(r.order) && r.order[i].name == string(name) {
		p := r.order[i]
		if p.value != string(value) {
			p.value = string(value)
		}
		m[p.name] = p.value
		r.next = append(r.next, p)
		return
	}
	if r.names == nil {
		r.names = namesOf(r.order)
	}
	r.reordered = true
	k, ok := r.names[string(name)]
	if !ok {
		k = string(name)
		r.names[k] = k
	}
	v, ok := r.last[k]
	if !ok || v != string(value) {
		v = string(value)
	}
	m[k] = v
	r.next = append(r.next, pair{k, v})
}

// namesOf interns the names of rows.
func namesOf(rows []pair) map[string]string {
	names := make(map[string]string, len(rows))
	for _, p := range rows {
		names[p.name] = p.name
	}
	return names
}
