package busynormal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// logicalDump is mariadb-dump of the whole schema, over and over for the
// fault's length, to a file on the same disk, as a nightly backup does.
var logicalDump = Fault{
	Name:  "logical-dump",
	Cause: "routine work",
	Inject: func(ctx context.Context, b *Bed) error {
		path := filepath.Join(b.Dir, "dump.sql")
		defer os.Remove(path)
		for ctx.Err() == nil {
			out, err := os.Create(path)
			if err != nil {
				return err
			}
			cmd := command(ctx, "mariadb-dump", "--no-defaults", "--socket="+b.Srv.Socket, "-uroot",
				"--single-transaction", "sbtest")
			var msg strings.Builder
			cmd.Stdout, cmd.Stderr = out, &msg
			err = cmd.Run()
			out.Close()
			if err != nil && ctx.Err() == nil {
				return fmt.Errorf("mariadb-dump: %v: %s", err, msg.String())
			}
		}
		return nil
	},
	// The dump's scans add to the normal's, which another reader of the
	// information schema (pt-stalk's collection: 84,000 rows a second on the
	// crowded normal) may already make large: a sum, not a ratio.
	Felt: func(normal, during Effect) string {
		return rose("rows read by full scans per second", normal.ScanRows, during.ScanRows, 1, 50000)
	},
}

// restoreDump loads a dump of one table into a schema of its own with the
// mariadb client, over and over for the fault's length, as a restore of a
// table from last night's backup does. The schema is dropped in the
// recovery.
var restoreDump = Fault{
	Name:  "restore",
	Cause: "routine work",
	Inject: func(ctx context.Context, b *Bed) error {
		if _, err := b.DB.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS restored"); err != nil {
			return err
		}
		for ctx.Err() == nil {
			in, err := os.Open(b.restore)
			if err != nil {
				return err
			}
			cmd := command(ctx, "mariadb", "--no-defaults", "--socket="+b.Srv.Socket, "-uroot", "restored")
			cmd.Stdin = in
			msg, err := cmd.CombinedOutput()
			in.Close()
			if err != nil && ctx.Err() == nil {
				return fmt.Errorf("mariadb < %s: %v: %s", filepath.Base(b.restore), err, msg)
			}
		}
		return nil
	},
	Recover: func(b *Bed) error {
		_, err := b.DB.Exec("DROP DATABASE IF EXISTS restored")
		return err
	},
	Felt: func(normal, during Effect) string {
		return rose("rows written per second", normal.RowsWritten, during.RowsWritten, 3, 5000)
	},
}
