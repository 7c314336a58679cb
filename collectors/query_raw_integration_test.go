package collectors

import (
	"context"
	"database/sql"
	"reflect"
	"testing"
)

// The driver-level read hands the decoders the same cells as database/sql's
// Rows.Scan into sql.RawBytes: text, NULL apart from the empty string, and
// the numbers the driver parsed (ints, unsigned, floats, doubles) formatted
// back the same way. Checked on a real server over the per-tick statements
// and a row of every kind of column, over one connection.
func TestRawRowsMatchDatabaseSQL(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	db := productDB(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	type result struct {
		cols []string
		rows [][]*string
	}
	collect := func(read func(start func([]string), row func([]sql.RawBytes)) error) result {
		var r result
		err := read(func(c []string) { r.cols = c }, func(raw []sql.RawBytes) {
			row := make([]*string, len(raw))
			for i, b := range raw {
				if b != nil {
					s := string(b)
					row[i] = &s
				}
			}
			r.rows = append(r.rows, row)
		})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	stmts := []string{
		"SELECT 1, -2, CAST(18446744073709551615 AS UNSIGNED), 3.25, CAST(1.5 AS FLOAT), CAST(2.5e300 AS DOUBLE), " +
			"NULL, '', 'text', DATE '2026-12-03', TIMESTAMP '2026-12-03 12:00:00.25', CAST(7 AS DECIMAL(10,3)), " +
			"CAST(1 AS SIGNED), YEAR('2026-01-01'), CAST(0.1 AS FLOAT), 1e-7",
		"SELECT CAST(ID AS SIGNED) + 0 * TIME_MS, USER, HOST, DB, COMMAND, STATE, CAST(1.5 AS DECIMAL(9,3)), EXAMINED_ROWS FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()",
		"SHOW GLOBAL VARIABLES LIKE 'innodb%'",
	}
	for _, stmt := range stmts {
		viaSQL := collect(func(start func([]string), row func([]sql.RawBytes)) error {
			return eachRowSQL(ctx, conn, stmt, start, row)
		})
		viaRaw := collect(func(start func([]string), row func([]sql.RawBytes)) error {
			ok, err := eachRowRaw(ctx, conn, tag+stmt, start, row)
			if !ok {
				t.Fatal("the driver connection could not be read directly")
			}
			return err
		})
		if !reflect.DeepEqual(viaSQL, viaRaw) {
			t.Errorf("%s:\n database/sql %v\n driver      %v", stmt, show(viaSQL.rows), show(viaRaw.rows))
		}
	}
}

func show(rows [][]*string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		for _, c := range r {
			if c == nil {
				out[i] = append(out[i], "NULL")
			} else {
				out[i] = append(out[i], *c)
			}
		}
	}
	return out
}
