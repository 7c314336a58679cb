package collectors

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"strconv"
	"time"
)

// The per-second reads (SHOW GLOBAL STATUS, some 600 rows; the processlist,
// a row per connection) are read from the driver's rows directly when the
// connection allows it. database/sql takes a lock and converts every cell
// of every row through reflection to hand it over as sql.RawBytes: over a
// `serve` of 100 servers that was a seventh of the process's CPU. Cells come
// out exactly as Rows.Scan into sql.RawBytes gives them (database/sql's
// formatting of the numbers the driver parsed), so the decoders see no
// difference.

// errNoRawRows: the driver connection cannot run a query without database/sql.
var errNoRawRows = errors.New("driver connection is no QueryerContext")

// eachRowRaw is eachRow over c's driver connection; ok is false when the
// driver does not allow it and nothing was sent.
func eachRowRaw(ctx context.Context, c *sql.Conn, query string, start func(cols []string), row func([]sql.RawBytes)) (ok bool, err error) {
	err = c.Raw(func(dc any) error {
		qc, isQ := dc.(driver.QueryerContext)
		if !isQ {
			return errNoRawRows
		}
		rows, err := qc.QueryContext(ctx, query, nil)
		if err != nil {
			return err
		}
		err = readRawRows(rows, start, row)
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		return err
	})
	if errors.Is(err, errNoRawRows) {
		return false, nil
	}
	return true, err
}

func readRawRows(rows driver.Rows, start func(cols []string), row func([]sql.RawBytes)) error {
	cols := rows.Columns()
	start(cols)
	vals := make([]driver.Value, len(cols))
	raw := make([]sql.RawBytes, len(cols))
	// scratch holds each column's number formatted back to text.
	scratch := make([][]byte, len(cols))
	for {
		err := rows.Next(vals)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		for i, v := range vals {
			raw[i], scratch[i] = rawCell(v, scratch[i][:0])
		}
		row(raw)
	}
}

// rawCell is what Rows.Scan puts in a sql.RawBytes for v; buf is reused for
// the values the driver parsed into numbers.
func rawCell(v driver.Value, buf []byte) (sql.RawBytes, []byte) {
	switch x := v.(type) {
	case nil:
		return nil, buf
	case []byte:
		return x, buf
	case string:
		buf = append(buf, x...)
	case int64:
		buf = strconv.AppendInt(buf, x, 10)
	case uint64:
		buf = strconv.AppendUint(buf, x, 10)
	case float32:
		buf = strconv.AppendFloat(buf, float64(x), 'g', -1, 32)
	case float64:
		buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
	case bool:
		buf = strconv.AppendBool(buf, x)
	case time.Time:
		buf = x.AppendFormat(buf, time.RFC3339Nano)
	default:
		return nil, buf
	}
	return buf, buf
}
