package collectors

import (
	"context"
	"database/sql"
)

// pairReader reads (name, value) results such as SHOW GLOBAL STATUS into a
// map, sharing names and unchanged values with the map it read last. The
// analyzers keep five minutes of status maps; most of their ~500 values
// stand still from one second to the next, and all of their names do.
type pairReader struct {
	last  map[string]string
	names map[string]string
}

// read runs stmt (tagged) and returns its first two columns as a map.
func (r *pairReader) read(ctx context.Context, q queryer, stmt string) (map[string]string, error) {
	m := make(map[string]string, len(r.last))
	err := eachRow(ctx, q, stmt, func([]string) {}, func(raw []sql.RawBytes) {
		if len(raw) >= 2 {
			r.put(m, raw[0], raw[1])
		}
	})
	if err != nil {
		return nil, err
	}
	r.last = m
	if len(r.names) > 2*len(m)+64 {
		r.names = nil
	}
	return m, nil
}

func (r *pairReader) put(m map[string]string, name, value []byte) {
	if r.names == nil {
		r.names = map[string]string{}
	}
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
}
